package wl;

import java.util.concurrent.locks.LockSupport;

/**
 * Parks that `jdk.ThreadPark` records with every kind of address: timed
 * parks without a blocker object (address 0, no parked class), parks on a
 * blocker object (its address: below 0x10000000 when the heap is placed
 * low, see tests/workloads/make-park-recording.sh), parks until a deadline
 * (the `until` timestamp set, the timeout not) and monitor waits (their
 * monitor's address).
 *
 *     java wl.ParkWorkload [rounds]
 */
public final class ParkWorkload {
    private static final Object BLOCKER = new Object();

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        for (int i = 0; i < rounds; i++) {
            LockSupport.parkNanos(2_000_000L);
            LockSupport.parkNanos(BLOCKER, 2_000_000L);
            LockSupport.parkUntil(BLOCKER, System.currentTimeMillis() + 2);
            LockSupport.parkUntil(System.currentTimeMillis() + 2);
            synchronized (BLOCKER) {
                BLOCKER.wait(2);
            }
        }
    }
}
