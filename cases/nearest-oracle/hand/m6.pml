/* slice_ref.py hand model m6 (R12, session 18): x is written by the merged
   statements of the atomic move; the last text that writes x is `x = x`
   (`x = z` the last to change its value, `x = 1` the first) */
byte x, y, z;

active proctype P()
{
    if
    :: z = 1
    :: z = 0
    fi;
    atomic {
        (y == 0);
        x = 1;
        x = z;
        x = x;
        y = 1
    };
    assert(x == 0)
}
