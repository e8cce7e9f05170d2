/* slice_ref.py hand model m10 (session 18; found by the oracle, seed 96132): a move
   headed by a recv and taken alike, reached as the decision an inserted step waited
   for, depends on what its first statement reads, not on what its merged statement
   reads (README "Merged statements"); before the fix pancause took that value Δ too */
byte y; byte z; byte g;
chan q = [1] of { byte };
chan w = [1] of { byte };

active proctype P0()
{
    w!0;
    atomic { w?g; z = y * 0 };
    (y == 0)
}

active proctype P1()
{
    y = 1
}
