/*
 * sliding_window: a go-back-N sliding-window sender over lossy FIFO
 * channels.  The sender has at most W unacknowledged messages in flight;
 * sequence numbers count modulo MOD = W + 1.  The receiver accepts only the
 * message with the next expected sequence number and acknowledges
 * cumulatively with the sequence number it expects next; the sender slides
 * its window on an acknowledgement and resends the whole window on a
 * timeout.  Two medium processes may lose any message or acknowledgement.
 * Properties (assertions): the receiver delivers the messages 0..M-1 in
 * order and never delivers one twice; when the sender ends, every message
 * has been delivered.
 */
#define M 4
#define W 2
#define MOD 3

chan s_to_m = [W] of { byte, byte };   /* sequence number, payload */
chan m_to_r = [W] of { byte, byte };
chan r_to_m = [W] of { byte };
chan m_to_s = [W] of { byte };

byte expected;      /* the receiver's next expected message */

active proctype sender()
{
    byte base = 0;
    byte next = 0;
    byte a;
    byte k;
    do
    :: (next < M && next < base + W) ->
        s_to_m!next % MOD, next;
        next++
    :: m_to_s?a ->
        k = (a + MOD - base % MOD) % MOD;
        if
        :: (k <= next - base) ->
            base = base + k
        :: else ->
            skip
        fi
    :: timeout ->
        next = base
    :: (base == M) ->
        break
    od;
    assert(expected == M)
}

active proctype receiver()
{
    byte seq;
    byte d;
end:
    do
    :: m_to_r?seq, d ->
        if
        :: (seq == expected % MOD) ->
            assert(d == expected);
            expected++
        :: else ->
            skip
        fi;
        r_to_m!expected % MOD
    od
}

active proctype data_medium()
{
    byte seq;
    byte d;
end:
    do
    :: s_to_m?seq, d ->
        if
        :: m_to_r!seq, d
        :: skip
        fi
    od
}

active proctype ack_medium()
{
    byte a;
end:
    do
    :: r_to_m?a ->
        if
        :: m_to_s!a
        :: skip
        fi
    od
}
