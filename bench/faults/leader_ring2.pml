/*
 * leader_ring: leader election in a unidirectional ring (Chang-Roberts /
 * LCR).  N nodes with distinct identifiers each send their identifier to the
 * next node; a node forwards identifiers larger than its own and swallows
 * smaller ones; a node that receives its own identifier is the leader and
 * sends a "leader elected" message around the ring, which every node records
 * and forwards before it ends.
 * Properties (assertions): exactly one leader, and it has the largest
 * identifier; every node learns the leader's identifier; all nodes end.
 */
#define N 4

mtype = { election, elected };
chan ring[N] = [N] of { mtype, byte };
byte leaders;
byte known[N];

proctype node(byte i; byte id)
{
    chan in = ring[i];
    chan out = ring[(i + 1) % N];
    mtype kind;
    byte v;
    out!election, id;
    do
    :: in?kind, v ->
        if
        :: (kind == election) ->
            if
            :: (v > id) ->
                out!election, v
            :: (v < id) ->
                skip
            :: (v == id) ->
                leaders++;
                assert(leaders == 1);
                assert(id == N);
                out!elected, id
            fi
        :: (kind == elected) ->
            known[i] = id;
            if
            :: (v != id) ->
                out!elected, v
            :: else ->
                skip
            fi;
            break
        fi
    od;
    assert(known[i] == N)
}

init {
    atomic {
        run node(0, 2);
        run node(1, 4);
        run node(2, 1);
        run node(3, 3)
    }
}
