/* slice_ref.py hand model m8 (R16, session 18): m7 with P's atomic move
   opening with an assignment, no decision: reached as the write of v, it adds
   the line of `v = 1` alone */
byte x, v, w, y;

active proctype P()
{
    atomic {
        w = 5;
        v = 1;
        w = 6
    }
}

active proctype Q()
{
    atomic {
        (v == 1);
        y = 3
    };
end:
    x = 1
}

active proctype R()
{
    (y == 3);
    assert(x == 0)
}
