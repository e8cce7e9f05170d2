/*
 * abp: the alternating-bit protocol over lossy channels.  The sender sends
 * the messages 0..M-1, each tagged with a one-bit sequence number, and
 * retransmits on a timeout until the matching acknowledgement arrives.  The
 * receiver delivers a message whose bit is the one it expects and
 * acknowledges every message with the bit received.  Two medium processes
 * forward messages and acknowledgements and may lose any of them.
 * Properties: the receiver delivers 0..M-1 in order, each exactly once
 * (assertion); sender and receiver end.
 */
#define M 3

chan s_to_m = [1] of { byte, bit };
chan m_to_r = [1] of { byte, bit };
chan r_to_m = [1] of { bit };
chan m_to_s = [1] of { bit };

byte delivered;

active proctype sender()
{
    byte msg = 0;
    bit sbit = 0;
    bit ack;
    do
    :: (msg < M) ->
        s_to_m!msg, sbit;
        do
        :: m_to_s?ack ->
            if
            :: (ack == sbit) ->
                break
            :: else ->
                skip
            fi
        :: timeout ->
            s_to_m!msg, sbit
        od;
        sbit = 1 - sbit;
        msg++
    :: else ->
        break
    od
}

active proctype receiver()
{
    bit expect = 0;
    byte m;
    bit b;
    do
    :: (delivered < M) ->
        m_to_r?m, b;
        if
        :: (b == expect) ->
            assert(m == delivered);
            delivered++;
            expect = 1 - expect
        :: else ->
            skip
        fi;
        r_to_m!b
    :: else ->
        break
    od
}

active proctype data_medium()
{
    byte m;
    bit b;
end:
    do
    :: s_to_m?m, b ->
        if
        :: m_to_r!m, b
        :: skip
        fi
    od
}

active proctype ack_medium()
{
    bit b;
end:
    do
    :: r_to_m?b ->
        if
        :: m_to_s!b
        :: skip
        fi
    od
}
