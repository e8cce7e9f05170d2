/*
 * readers_writers: a readers-writers lock built from a state word (number of
 * active readers, writer flag) updated atomically.  Two readers and two
 * writers each use the lock twice and end.  A writer bumps the shared data
 * twice in a row, a reader reads it twice and expects the same value.
 * Properties (assertions): no reader while a writer writes, no writer while
 * readers read, writers do not interleave, readers see no torn write; all
 * processes end.
 */
byte readers;
bool writing;
byte data;

proctype reader()
{
    byte round = 0;
    byte v;
    do
    :: (round < 2) ->
        atomic {
            !writing ->
            readers++
        };
        v = data;
        assert(!writing);
        assert(data == v);
        atomic {
            readers--
        };
        round++
    :: else ->
        break
    od
}

proctype writer()
{
    byte round = 0;
    byte w;
    do
    :: (round < 2) ->
        atomic {
            (readers == 0) ->
            writing = true
        };
        assert(readers == 0);
        w = data;
        data = (w + 1) % 4;
        data = (data + 1) % 4;
        assert(data == (w + 2) % 4);
        writing = false;
        round++
    :: else ->
        break
    od
}

init {
    atomic {
        run reader();
        run reader();
        run writer();
        run writer()
    }
}
