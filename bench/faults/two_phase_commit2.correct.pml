/*
 * two_phase_commit: a coordinator and three participants.  Each participant
 * votes yes or no (nondeterministically); the coordinator collects all
 * votes, decides commit only if every vote is yes, and sends the decision to
 * every participant, which applies it and acknowledges.
 * Properties (assertions): all participants reach the same outcome, and it is
 * commit exactly when all voted yes; all processes end.
 */
#define N 3

mtype = { yes, no, commit, abort, ack };
chan to_coord = [N] of { mtype, byte };
chan to_part[N] = [1] of { mtype };

byte outcome[N];         /* 0 undecided, 1 committed, 2 aborted */
byte yes_votes;

proctype participant(byte i)
{
    mtype d;
    if
    :: to_coord!yes, i
    :: to_coord!no, i
    fi;
    to_part[i]?d;
    if
    :: (d == commit) ->
        outcome[i] = 1
    :: (d == abort) ->
        outcome[i] = 2
    fi;
    to_coord!ack, i
}

active proctype coordinator()
{
    byte votes = 0;
    byte acks = 0;
    byte j;
    mtype v;
    mtype decision;
    do
    :: (votes < N) ->
        to_coord?v, j;
        if
        :: (v == yes) ->
            yes_votes++
        :: else ->
            skip
        fi;
        votes++
    :: else ->
        break
    od;
    if
    :: (yes_votes == N) ->
        decision = commit
    :: else ->
        decision = abort
    fi;
    j = 0;
    do
    :: (j < N) ->
        to_part[j]!decision;
        j++
    :: else ->
        break
    od;
    do
    :: (acks < N) ->
        to_coord?ack, j;
        acks++
    :: else ->
        break
    od;
    assert(outcome[0] == outcome[1] && outcome[1] == outcome[2]);
    assert((outcome[0] == 1) == (yes_votes == N))
}

init {
    atomic {
        run participant(0);
        run participant(1);
        run participant(2)
    }
}
