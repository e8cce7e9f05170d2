/*
 * railway: a railway level crossing, adapted from pancause's
 * cases/railway/railway.pml (the running example of Leitner-Fischer & Leue,
 * VMCAI 2013).  Correct variant: the gate cannot fail, and it closes only
 * when no car is on the crossing (the original's two hazard causes
 * removed); the LTL property is replaced by assertions.  A train approaches,
 * waits until the gate is closed, crosses and leaves, twice.  The gate
 * closes when a train approaches and opens once it has left.  A car
 * crosses when the barrier is up and no train is on the crossing, twice.
 * Checking the barrier and moving are atomic steps.
 * Properties (assertions): never a car and a train on the crossing at once;
 * trains cross only with the gate closed; train and car end, the gate ends
 * idle.
 */
bool train_approaching;
bool train_crossing;
bool gate_closed;
bool car_crossing;

active proctype Train()
{
    byte n = 0;
    do
    :: (n < 2) ->
        train_approaching = true;
        atomic {
            gate_closed ->
            train_crossing = true
        };
        assert(!car_crossing);
        assert(gate_closed);
        train_crossing = false;
        train_approaching = false;
        n++
    :: else ->
        break
    od
}

active proctype Gate()
{
end:
    do
    :: atomic {
        (train_approaching && !gate_closed && !car_crossing) ->
        gate_closed = true
       }
    :: atomic {
        (gate_closed && !train_approaching) ->
        gate_closed = false
       }
    od
}

active proctype Car()
{
    byte n = 0;
    do
    :: (n < 2) ->
        atomic {
            (!gate_closed && !train_crossing) ->
            car_crossing = true
        };
        assert(!train_crossing);
        car_crossing = false;
        n++
    :: else ->
        break
    od
}
