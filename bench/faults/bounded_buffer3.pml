/*
 * bounded_buffer: a producer and a consumer share a circular buffer of N
 * slots guarded by a count; the producer writes the items 1..M in order, the
 * consumer reads them.  Updates of the count are atomic.
 * Properties (assertions): the count stays within 0..N, the consumer reads
 * the items in the order written; both processes end.
 */
#define N 2
#define M 4

byte buf[N];
byte count;
byte in_pos;
byte out_pos;

active proctype producer()
{
    byte item = 1;
    do
    :: (item <= M) ->
        (count < N);
        buf[in_pos] = item;
        in_pos = (in_pos + 1) % N;
        atomic {
            skip;
            assert(count <= N)
        };
        item++
    :: else ->
        break
    od
}

active proctype consumer()
{
    byte expected = 1;
    byte got;
    do
    :: (expected <= M) ->
        (count > 0);
        got = buf[out_pos];
        out_pos = (out_pos + 1) % N;
        atomic {
            count--;
            assert(count < N)
        };
        assert(got == expected);
        expected++
    :: else ->
        break
    od
}
