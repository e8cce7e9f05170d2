/*
 * bubble_sort: bubble sort of an array of N values, each chosen
 * nondeterministically from 0..2 (all 81 inputs).
 * Properties (assertions): afterwards the array is sorted in non-decreasing
 * order and holds the same values (same sum, same number of zeros).
 */
#define N 4

byte a[N];

active proctype sort()
{
    byte i;
    byte j;
    byte t;
    byte sum = 0;
    byte zeros = 0;
    i = 0;
    do
    :: (i < N) ->
        select(t : 0 .. 2);
        a[i] = t;
        sum = sum + t;
        zeros = zeros + (t == 0);
        i++
    :: else ->
        break
    od;
    i = 0;
    do
    :: (i < N - 1) ->
        j = 0;
        do
        :: (j < N - 1 - i) ->
            if
            :: (a[j] > a[j + 1]) ->
                t = a[j];
                a[j] = a[j + 1];
                a[j + 1] = t
            :: else ->
                skip
            fi;
            j++
        :: else ->
            break
        od;
        i++
    :: else ->
        break
    od;
    i = 0;
    do
    :: (i < N - 1) ->
        assert(a[i] <= a[i + 1]);
        i++
    :: else ->
        break
    od;
    assert(a[0] + a[1] + a[2] + a[3] == sum);
    assert((a[0] == 0) + (a[1] == 0) + (a[2] == 0) + (a[3] == 0) == zeros)
}
