/*
 * binary_search: binary search for a key in a sorted array of N values.
 * The array (non-decreasing, values 0..3) and the key (0..3) are chosen
 * nondeterministically.  The search returns an index holding the key, or -1.
 * Properties (assertions): a returned index holds the key; -1 only when the
 * key is absent; at most 3 probes (floor(log2 N) + 1 for N = 4).
 */
#define N 4

byte a[N];

active proctype search()
{
    byte key;
    byte i;
    byte v;
    byte probes = 0;
    short lo;
    short hi;
    short mid;
    short res = -1;
    v = 0;
    i = 0;
    do
    :: (i < N) ->
        select(v : v .. 3);
        a[i] = v;
        i++
    :: else ->
        break
    od;
    select(key : 0 .. 3);
    lo = 0;
    hi = N - 1;
    do
    :: (lo <= hi) ->
        probes++;
        assert(probes <= 3);
        mid = (lo + hi) / 2;
        if
        :: (a[mid] == key) ->
            res = mid;
            break
        :: (a[mid] < key) ->
            lo = mid + 1
        :: (a[mid] > key) ->
            hi = mid - 1
        fi
    :: else ->
        break
    od;
    if
    :: (res >= 0) ->
        assert(a[res] == key)
    :: else ->
        assert(a[0] != key && a[1] != key && a[2] != key && a[3] != key)
    fi
}
