/*
 * hanoi: the towers of Hanoi, from the BEEM benchmark set (hanoi.1,
 * Pelanek 2007; Promela version from the SpinS/LTSmin test suite), adapted:
 * reformatted to one statement per line, reduced from 8 to 5 disks (so
 * that SPIN's depth-first counterexamples stay a few hundred steps long),
 * and each move's d_step became an atomic sequence (nothing in it can block
 * after its guard, so the behaviour is the same).  Pegs a, b, c are stacks
 * with a sentinel 100 at the bottom and x_act the number of entries; six
 * processes move a disk from one peg to another when it is smaller than the
 * target's top disk.  Added for this benchmark: a monitor that checks in
 * every reachable state that every peg is ordered (larger disks below
 * smaller ones) and that no disk is lost or duplicated (the disk sizes
 * always sum to 15).  The original model has no error; it explores all
 * 3^n configurations.
 */
byte a[6];
byte a_act = 6;
byte b[6];
byte b_act = 1;
byte c[6];
byte c_act = 1;

#define ORD(x) (x[1] > x[2] || x[2] == 0) && (x[2] > x[3] || x[3] == 0) && \
               (x[3] > x[4] || x[4] == 0) && (x[4] > x[5] || x[5] == 0)
#define SUM(x) (x[1] + x[2] + x[3] + x[4] + x[5])

init {
    d_step {
        a[0] = 100;
        a[1] = 5;
        a[2] = 4;
        a[3] = 3;
        a[4] = 2;
        a[5] = 1;
        b[0] = 100;
        c[0] = 100
    };
    atomic {
        run AtoB();
        run AtoC();
        run BtoA();
        run BtoC();
        run CtoA();
        run CtoB();
        run monitor()
    }
}

proctype monitor()
{
    assert(ORD(a) && ORD(b) && ORD(c));
    assert(SUM(a) + SUM(b) + SUM(c) == 15)
}

proctype AtoB()
{
q:  if
    :: atomic {
        (a[a_act - 1] < b[b_act - 1]) ->
        b[b_act] = a[a_act - 1];
        b_act = b_act + 1;
        a[a_act - 1] = 0;
        a_act = a_act - 1
       };
       goto q
    fi
}

proctype AtoC()
{
q:  if
    :: atomic {
        (a[a_act - 1] < c[c_act - 1]) ->
        c[c_act] = a[a_act - 2];
        c_act = c_act + 1;
        a[a_act - 1] = 0;
        a_act = a_act - 1
       };
       goto q
    fi
}

proctype BtoA()
{
q:  if
    :: atomic {
        (b[b_act - 1] < a[a_act - 1]) ->
        a[a_act] = b[b_act - 1];
        a_act = a_act + 1;
        b[b_act - 1] = 0;
        b_act = b_act - 1
       };
       goto q
    fi
}

proctype BtoC()
{
q:  if
    :: atomic {
        (b[b_act - 1] < c[c_act - 1]) ->
        c[c_act] = b[b_act - 1];
        c_act = c_act + 1;
        b[b_act - 1] = 0;
        b_act = b_act - 1
       };
       goto q
    fi
}

proctype CtoA()
{
q:  if
    :: atomic {
        (c[c_act - 1] < a[a_act - 1]) ->
        a[a_act] = c[c_act - 1];
        a_act = a_act + 1;
        c[c_act - 1] = 0;
        c_act = c_act - 1
       };
       goto q
    fi
}

proctype CtoB()
{
q:  if
    :: atomic {
        (c[c_act - 1] < b[b_act - 1]) ->
        b[b_act] = c[c_act - 1];
        b_act = b_act + 1;
        c[c_act - 1] = 0;
        c_act = c_act - 1
       };
       goto q
    fi
}
