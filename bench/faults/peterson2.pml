/*
 * peterson: Peterson's mutual exclusion algorithm for two processes.  Each
 * process enters its critical section twice and then ends.
 * Property: at most one process in the critical section (assertion).
 */
bool flag[2];
byte turn;
byte in_cs;

proctype P(byte i)
{
    byte round = 0;
    do
    :: (round < 2) ->
        flag[i] = true;
        turn = 1 - i;
        (flag[1 - i] == false || turn != i);
        in_cs++;
        assert(in_cs == 1);
        in_cs--;
        flag[i] = false;
        round++
    :: else ->
        break
    od
}

init {
    atomic {
        run P(0);
        run P(1)
    }
}
