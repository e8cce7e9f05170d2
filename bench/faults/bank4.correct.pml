/*
 * bank: three accounts, each protected by a lock, and three concurrent
 * transfers 0->1, 1->2, 2->0 that each run twice.  A transfer locks the two
 * accounts in increasing order (no circular wait), moves the amount only if
 * the source account covers it, and unlocks.  A monitor checks the total
 * whenever no account is locked.
 * Properties (assertions): no balance becomes negative, money is neither
 * created nor destroyed; all transfers end (no deadlock).
 */
#define NA 3
#define TOTAL 6

short bal[NA] = 2;
bool lk[NA];

proctype transfer(byte from; byte to; byte amt)
{
    byte first;
    byte second;
    byte n = 0;
    if
    :: (from < to) ->
        first = from;
        second = to
    :: else ->
        first = to;
        second = from
    fi;
    do
    :: (n < 2) ->
        atomic {
            !lk[first] ->
            lk[first] = true
        };
        atomic {
            !lk[second] ->
            lk[second] = true
        };
        if
        :: (bal[from] >= amt) ->
            bal[from] = bal[from] - amt;
            bal[to] = bal[to] + amt
        :: else ->
            skip
        fi;
        assert(bal[from] >= 0);
        lk[second] = false;
        lk[first] = false;
        n++
    :: else ->
        break
    od
}

active proctype monitor()
{
    atomic {
        (!lk[0] && !lk[1] && !lk[2]) ->
        assert(bal[0] + bal[1] + bal[2] == TOTAL)
    }
}

init {
    atomic {
        run transfer(0, 1, 2);
        run transfer(1, 2, 1);
        run transfer(2, 0, 2)
    }
}
