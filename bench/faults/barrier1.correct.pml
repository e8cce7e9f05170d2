/*
 * barrier: a sense-reversing barrier for three processes that run PHASES
 * phases.  In each phase a process does its work (counts itself in
 * done[phase]) and waits at the barrier: the last process to arrive resets
 * the arrival count and flips the global sense, which releases the others.
 * Properties (assertions): nobody leaves the barrier of a phase before every
 * process has finished the phase's work; all processes end.
 */
#define N 3
#define PHASES 2

byte count;
bool sense;
byte done[PHASES];

proctype worker()
{
    bool local_sense = false;
    byte phase = 0;
    do
    :: (phase < PHASES) ->
        done[phase]++;
        local_sense = !local_sense;
        atomic {
            count++;
            if
            :: (count == N) ->
                count = 0;
                sense = local_sense
            :: else ->
                skip
            fi
        };
        (sense == local_sense);
        assert(done[phase] == N);
        phase++
    :: else ->
        break
    od
}

init {
    atomic {
        run worker();
        run worker();
        run worker()
    }
}
