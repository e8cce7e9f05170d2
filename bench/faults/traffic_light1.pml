/*
 * traffic_light: a controller for a crossing of a north-south and an
 * east-west road.  Each direction has a light process that, when the
 * controller sends it "go", switches green, then yellow, then red, and
 * reports "done".  The controller alternates between the directions for
 * CYCLES rounds.  A monitor process checks the safety property in every
 * reachable state.
 * Properties (assertions): the two directions are never both not red; a
 * light only goes green from red; the controller ends, the lights end idle.
 */
#define CYCLES 2

mtype = { red, yellow, green };
mtype light[2] = red;
chan go[2] = [0] of { bit };
chan done = [0] of { byte };

proctype signal(byte d)
{
end:
    do
    :: go[d]?_ ->
        assert(light[d] == red);
        light[d] = green;
        light[d] = yellow;
        light[d] = red;
        done!d
    od
}

active proctype controller()
{
    byte round = 0;
    byte d;
    do
    :: (round < CYCLES) ->
        go[0]!1;
        skip;
        assert(d == 0);
        go[1]!1;
        done?d;
        assert(d == 1);
        round++
    :: else ->
        break
    od
}

active proctype monitor()
{
    assert(light[0] == red || light[1] == red)
}

init {
    atomic {
        run signal(0);
        run signal(1)
    }
}
