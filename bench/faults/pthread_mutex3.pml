/*
 * pthread_mutex: the mutex-lock example of Groce's thesis, section 9.3
 * (mutex-n-01.c, from LinuxThreads' pthread_mutex_lock), re-modelled in
 * Promela.  A mutex has a kind: 0 fast, 1 recursive, 2 error-checking.  Two
 * threads lock the mutex, do their work in the critical section, and unlock
 * it.  An error-checking mutex locked again by its owner returns EDEADLK (35)
 * without taking the low-level lock; otherwise the thread must take the
 * low-level lock (m_lock, a test-and-set) before it becomes the owner.  The
 * mutex's kind is chosen nondeterministically; each thread may try a second
 * (illegal) lock while it holds the mutex, which an error-checking or a
 * recursive mutex must survive.
 * Property: mutual exclusion in the critical section; every thread ends.
 */
#define NOBODY 255
#define EDEADLK 35

byte kind;              /* 0 fast, 1 recursive, 2 error-checking */
bool m_lock;            /* the low-level spin lock */
byte m_owner = NOBODY;
byte m_count;           /* recursion depth of a recursive mutex */
byte in_cs;             /* threads in the critical section */

inline pthread_lock(self) {
    atomic {
        !m_lock ->
        m_lock = true
    }
}

inline pthread_unlock_low() {
    m_lock = false
}

inline mutex_lock(self, ret) {
    if
    :: (kind == 0) ->
        pthread_lock(self);
        ret = 0
    :: (kind == 1) ->
        if
        :: (m_owner == self) ->
            m_count++;
            ret = 0
        :: else ->
            pthread_lock(self);
            m_owner = self;
            m_count = 0;
            ret = 0
        fi
    :: (kind == 2) ->
        if
        :: (m_owner == self) ->
            ret = EDEADLK
        :: else ->
            pthread_lock(self);
            m_owner = self;
            ret = 0
        fi
    fi
}

inline mutex_unlock(self) {
    if
    :: (kind == 0) ->
        pthread_unlock_low()
    :: (kind == 1) ->
        if
        :: (m_count > 0) ->
            m_count--
        :: else ->
            m_owner = NOBODY;
            pthread_unlock_low()
        fi
    :: (kind == 2) ->
        m_owner = NOBODY;
        skip
    fi
}

proctype thread(byte self)
{
    byte ret;
    mutex_lock(self, ret);
    assert(ret == 0);
    in_cs++;
    assert(in_cs == 1);
    if
    :: (kind != 0) ->
        mutex_lock(self, ret);
        if
        :: (ret == 0) ->
            mutex_unlock(self)
        :: else ->
            assert(kind == 2)
        fi
    :: true ->
        skip
    fi;
    in_cs--;
    mutex_unlock(self)
}

init {
    select(kind : 0 .. 2);
    atomic {
        run thread(1);
        run thread(2)
    }
}
