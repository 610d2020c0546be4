package wl;

import java.util.ArrayList;
import java.util.List;

/**
 * Allocations of known sizes and thrown exceptions and errors, for the
 * profile kinds' tests: `alloc` (small objects that fit a TLAB, large
 * arrays allocated outside one) and `exceptions` (an Error is traced both
 * as jdk.JavaErrorThrow and jdk.JavaExceptionThrow).
 *
 *     java wl.KindsWorkload [seconds] [errors]
 *
 * One thread allocates for the given time (default 2 s); another throws
 * an IllegalStateException every 5 ms and, spread over the run, `errors`
 * AssertionErrors (default 4).
 */
public final class KindsWorkload {
    private static volatile boolean running = true;
    private static long sink;

    public static void main(String[] args) throws Exception {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 2;
        int errors = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        Thread alloc = new Thread(KindsWorkload::allocator, "allocator");
        Thread thrower = new Thread(() -> thrower(seconds, errors), "thrower");
        alloc.start();
        thrower.start();
        Thread.sleep(seconds * 1000);
        running = false;
        alloc.join();
        thrower.join();
        System.out.println(sink);
    }

    private static void allocator() {
        List<Object> keep = new ArrayList<>();
        int i = 0;
        while (running) {
            keep.add(smallRecord(i));
            keep.add(new int[16 + i % 64]);
            if (i % 256 == 0)
                keep.add(largeArray(i));
            if (keep.size() > 4096) {
                sink += keep.size();
                keep = new ArrayList<>();
            }
            i++;
        }
    }

    private static String smallRecord(int i) {
        return "record-" + i;
    }

    /** 4 MB: larger than any TLAB, so allocated outside one. */
    private static long[] largeArray(int i) {
        long[] a = new long[512 * 1024];
        a[i % a.length] = i;
        return a;
    }

    private static void thrower(long seconds, int errors) {
        long every = Math.max(1, seconds * 1000 / 5 / Math.max(1, errors));
        int thrown = 0;
        for (long i = 0; running; i++) {
            try {
                if (thrown < errors && i % every == every / 2) {
                    thrown++;
                    throwError(i);
                }
                throwException(i);
            } catch (IllegalStateException | AssertionError e) {
                sink += e.getMessage().length();
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static void throwException(long i) {
        throw new IllegalStateException("exception " + i);
    }

    private static void throwError(long i) {
        throw new AssertionError("error " + i);
    }
}
