/*
 * minmax: the least and the most of three inputs.  Groce's running example
 * (thesis, chapter 3, Figure 3.1, minmax.c) re-modelled in Promela: the inputs
 * are chosen nondeterministically from a small range, and the assertion is the
 * thesis' specification, least <= most, strengthened to say that least and
 * most are a lower and an upper bound of the inputs.
 */
byte input1, input2, input3;
byte least, most;

active proctype main()
{
    select(input1 : 0 .. 3);
    select(input2 : 0 .. 3);
    select(input3 : 0 .. 3);
    least = input1;
    most = input1;
    if
    :: (most < input2) ->
        most = input2
    :: else ->
        skip
    fi;
    if
    :: (most < input3) ->
        most = input3
    :: else ->
        skip
    fi;
    if
    :: (least > input2) ->
        least = input2
    :: else ->
        skip
    fi;
    if
    :: (least > input3) ->
        skip
    :: else ->
        skip
    fi;
    assert(least <= most);
    assert(least <= input1 && least <= input2 && least <= input3);
    assert(most >= input1 && most >= input2 && most >= input3)
}
