/*
 * philosophers: dining philosophers, N = 3, with ordered forks.  Philosopher
 * i needs forks i and (i+1)%N and always picks up the lower-numbered fork
 * first, which breaks the circular wait.  A fork is taken by an atomic
 * test-and-set.  Each philosopher eats twice and leaves.
 * Properties: a philosopher eats holding both its forks (assertion); no
 * deadlock: all philosophers end.
 */
#define N 3
#define FREE 255

byte fork[N] = FREE;

proctype phil(byte i)
{
    byte first;
    byte second;
    byte meals = 0;
    if
    :: (i < (i + 1) % N) ->
        first = i;
        second = (i + 1) % N
    :: else ->
        first = (i + 1) % N;
        second = i
    fi;
    do
    :: (meals < 2) ->
        atomic {
            (fork[first] == FREE) ->
            fork[first] = i
        };
        atomic {
            (fork[second] == FREE) ->
            fork[second] = i
        };
        assert(fork[i] == i && fork[(i + 1) % N] == i);
        meals++;
        fork[second] = FREE;
        fork[first] = FREE
    :: else ->
        break
    od
}

init {
    atomic {
        run phil(0);
        run phil(1);
        run phil(2)
    }
}
