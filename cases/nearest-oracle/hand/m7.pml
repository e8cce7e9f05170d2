/* slice_ref.py hand model m7 (R16, session 18): Q's `x = 1` is deleted; its
   control is Q's atomic move, taken alike, whose guard reads v; v's write is
   P's atomic move, taken alike, where the merged `v = 1` wrote it after the
   guard `(t == 0)` */
byte x, v, w, t, y;

active proctype P()
{
    atomic {
        (t == 0);
        w = 5;
        v = 1;
        t = 2
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
