/*
 * Railway crossing: the running example of Leitner-Fischer & Leue, "Causality
 * Checking for Complex System Models" (VMCAI 2013), written from the paper's
 * description (its model is not public).
 *
 * A train approaches (Ta), crosses (Tc) and leaves (Tl), again and again.  When a
 * train approaches, the gate either closes (Gc) or fails (Gf): a failed gate sticks
 * open but signals "closed", forever.  The train crosses once the gate signals
 * closed; the gate opens (Go) after the train has left.  A car approaches (Ca),
 * crosses (Cc) when the barrier is up and no train is on the crossing, and leaves
 * (Cl).  The hazard: the car and the train are on the crossing at the same time.
 *
 * Labels name the events; d_step makes each event one indivisible transition.
 * (SPIN forbids a label on the first statement of a do/if option, so the gate's
 * events follow a silent guard.)
 */
bool train_approaching, train_crossing;
bool gate_closed, gate_failed;
bool car_crossing;

active proctype Train()
{
Ta: train_approaching = true;
Tc: d_step { (gate_closed || gate_failed) -> train_crossing = true };
Tl: d_step { train_crossing = false; train_approaching = false };
    goto Ta
}

active proctype Gate()
{
    do
    :: train_approaching && !gate_closed && !gate_failed -> Gc: gate_closed = true
    :: train_approaching && !gate_closed && !gate_failed -> Gf: gate_failed = true
    :: gate_closed && !train_approaching -> Go: gate_closed = false
    od
}

active proctype Car()
{
Ca: skip;
Cc: d_step { (!gate_closed && !train_crossing) -> car_crossing = true };
Cl: car_crossing = false;
    goto Ca
}

ltl no_collision { [] !(car_crossing && train_crossing) }
