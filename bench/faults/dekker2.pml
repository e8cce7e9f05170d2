/*
 * dekker: Dekker's mutual exclusion algorithm for two processes, each
 * entering its critical section twice.
 * Property: at most one process in the critical section (assertion); both
 * processes end.
 */
bool wants[2];
byte turn;
byte in_cs;

proctype P(byte i)
{
    byte round = 0;
    do
    :: (round < 2) ->
        skip;
        do
        :: wants[1 - i] ->
            if
            :: (turn != i) ->
                wants[i] = false;
                (turn == i);
                wants[i] = true
            :: else ->
                skip
            fi
        :: else ->
            break
        od;
        in_cs++;
        assert(in_cs == 1);
        in_cs--;
        turn = 1 - i;
        wants[i] = false;
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
