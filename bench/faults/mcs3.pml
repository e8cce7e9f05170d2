/*
 * mcs: the MCS queue lock (Mellor-Crummey & Scott) for three processes,
 * from the BEEM benchmark set (mcs.2, Pelanek 2007; Promela version from the
 * SpinS/LTSmin test suite), reformatted to one statement per line, with a
 * deadlock of the BEEM version fixed (see README.md).  Added for this
 * benchmark: a counter of the processes in the critical section and a
 * mutual-exclusion assertion.
 * The processes run forever: a state in which none can move is an invalid
 * end state (deadlock).
 * Each process: append itself to the queue with an atomic swap of tail;
 * if there was a predecessor, link behind it and spin on its own locked
 * flag; on release, either swing tail back to empty (compare-and-swap) or
 * wait for the successor to link and clear the successor's flag.
 */
#define NONE 255

byte next[3];
byte locked[3];
byte tail = NONE;
byte in_cs;

init {
    next[0] = NONE;
    next[1] = NONE;
    next[2] = NONE;
    atomic {
        run P_0();
        run P_1();
        run P_2()
    }
}

proctype P_0()
{
    byte pred = 0;
NCS:
    next[0] = NONE;
p2:
    atomic {
        pred = tail;
        tail = 0
    };
p3:
    if
    :: (pred == NONE) ->
        goto CS
    :: (pred != NONE) ->
        skip
    fi;
p4:
    locked[0] = 1;
p5:
    next[pred] = 0;
p6:
    (locked[0] == 0);
CS:
    in_cs++;
    assert(in_cs == 1);
    in_cs--;
    if
    :: (next[0] == NONE) ->
        goto p9
    :: (next[0] != NONE) ->
        goto p13
    fi;
p9:
    if
    :: atomic {
        (tail == 0) ->
        tail = NONE
       };
       goto NCS
    :: (tail != 0) ->
        skip
    fi;
p10:
    (next[0] != NONE);
p13:
    locked[next[0]] = 0;
    goto NCS
}

proctype P_1()
{
    byte pred = 0;
NCS:
    next[1] = NONE;
p2:
    atomic {
        pred = tail;
        tail = 1
    };
p3:
    if
    :: (pred == NONE) ->
        goto CS
    :: (pred != NONE) ->
        skip
    fi;
p4:
    locked[1] = 1;
p5:
    next[pred] = 1;
p6:
    (locked[1] == 0);
CS:
    in_cs++;
    assert(in_cs == 1);
    in_cs--;
    if
    :: (next[1] == NONE) ->
        goto p9
    :: (next[1] != NONE) ->
        goto p13
    fi;
p9:
    if
    :: atomic {
        (tail == 1) ->
        tail = NONE
       };
       goto NCS
    :: (tail != 1) ->
        skip
    fi;
p10:
    (next[1] != NONE);
p13:
    locked[next[1]] = 0;
    goto NCS
}

proctype P_2()
{
    byte pred = 0;
NCS:
    next[2] = NONE;
p2:
    atomic {
        pred = tail;
        tail = 2
    };
p3:
    if
    :: (pred == NONE) ->
        goto CS
    :: (pred != NONE) ->
        skip
    fi;
p4:
    locked[2] = 1;
p5:
    next[pred] = 1;
p6:
    (locked[2] == 0);
CS:
    in_cs++;
    assert(in_cs == 1);
    in_cs--;
    if
    :: (next[2] == NONE) ->
        goto p9
    :: (next[2] != NONE) ->
        goto p13
    fi;
p9:
    if
    :: atomic {
        (tail == 2) ->
        tail = NONE
       };
       goto NCS
    :: (tail != 2) ->
        skip
    fi;
p10:
    (next[2] != NONE);
p13:
    locked[next[2]] = 0;
    goto NCS
}
