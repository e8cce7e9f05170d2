/*
 * elevator: one cabin serving FLOORS floors.  A user process issues three
 * requests (nondeterministic floors); the cabin takes them in order from a
 * request channel, closes its door, moves floor by floor to the target and
 * opens the door there.  A monitor checks the state invariant in every
 * reachable state.
 * Properties (assertions): the cabin stays within the floors, never moves
 * with its door open, and opens its door at the requested floor; the user
 * ends, the cabin ends idle.
 */
#define FLOORS 3

byte floor = 0;
bool door_open = true;
bool moving = false;
chan req = [2] of { byte };

active proctype cabin()
{
    byte target;
end:
    do
    :: req?target ->
        door_open = false;
        do
        :: (floor < target) ->
            moving = true;
            floor++;
            moving = false
        :: (floor > target) ->
            moving = true;
            floor--;
            moving = false
        :: (floor == target) ->
            break
        od;
        assert(floor == target);
        door_open = true
    od
}

active proctype user()
{
    byte n = 0;
    byte f;
    do
    :: (n < 3) ->
        select(f : 0 .. FLOORS - 1);
        req!f;
        n++
    :: else ->
        break
    od
}

active proctype monitor()
{
    assert(floor < FLOORS && !(moving && door_open))
}
