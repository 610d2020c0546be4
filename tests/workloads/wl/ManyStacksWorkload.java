package wl;

/**
 * CPU time spent on call paths that are seldom the same twice, for the
 * benchmark input of many distinct stacks (tests/workloads/
 * make-many-stacks-recording.sh): each step goes on through one of 16
 * methods picked by a seeded random number, 12 to 27 steps deep, so a
 * CPU-time sampler meets a new stack nearly every sample.
 *
 * Usage: wl.ManyStacksWorkload SECONDS THREADS
 */
public final class ManyStacksWorkload {
    static volatile long sink;

    private ManyStacksWorkload() {
    }

    static long spin(long r) {
        long x = r;
        for (int i = 0; i < 2000; i++)
            x = x * 6364136223846793005L + 1442695040888963407L ^ (x >>> 29);
        return x;
    }

    static long step(int depth, long r) {
        if (depth == 0)
            return spin(r);
        r = r * 6364136223846793005L + 1442695040888963407L;
        switch ((int) (r >>> 60)) {
            case 0: return m00(depth - 1, r);
            case 1: return m01(depth - 1, r);
            case 2: return m02(depth - 1, r);
            case 3: return m03(depth - 1, r);
            case 4: return m04(depth - 1, r);
            case 5: return m05(depth - 1, r);
            case 6: return m06(depth - 1, r);
            case 7: return m07(depth - 1, r);
            case 8: return m08(depth - 1, r);
            case 9: return m09(depth - 1, r);
            case 10: return m10(depth - 1, r);
            case 11: return m11(depth - 1, r);
            case 12: return m12(depth - 1, r);
            case 13: return m13(depth - 1, r);
            case 14: return m14(depth - 1, r);
            case 15: return m15(depth - 1, r);
            default: return 0;
        }
    }

    static long m00(int depth, long r) {
        return step(depth, r ^ 2177342782468422677L) + 1;
    }
    static long m01(int depth, long r) {
        return step(depth, r ^ 4354685564936845354L) + 2;
    }
    static long m02(int depth, long r) {
        return step(depth, r ^ 6532028347405268031L) + 3;
    }
    static long m03(int depth, long r) {
        return step(depth, r ^ 8709371129873690708L) + 4;
    }
    static long m04(int depth, long r) {
        return step(depth, r ^ 1663341875487337577L) + 5;
    }
    static long m05(int depth, long r) {
        return step(depth, r ^ 3840684657955760254L) + 6;
    }
    static long m06(int depth, long r) {
        return step(depth, r ^ 6018027440424182931L) + 7;
    }
    static long m07(int depth, long r) {
        return step(depth, r ^ 8195370222892605608L) + 8;
    }
    static long m08(int depth, long r) {
        return step(depth, r ^ 1149340968506252477L) + 9;
    }
    static long m09(int depth, long r) {
        return step(depth, r ^ 3326683750974675154L) + 10;
    }
    static long m10(int depth, long r) {
        return step(depth, r ^ 5504026533443097831L) + 11;
    }
    static long m11(int depth, long r) {
        return step(depth, r ^ 7681369315911520508L) + 12;
    }
    static long m12(int depth, long r) {
        return step(depth, r ^ 635340061525167377L) + 13;
    }
    static long m13(int depth, long r) {
        return step(depth, r ^ 2812682843993590054L) + 14;
    }
    static long m14(int depth, long r) {
        return step(depth, r ^ 4990025626462012731L) + 15;
    }
    static long m15(int depth, long r) {
        return step(depth, r ^ 7167368408930435408L) + 16;
    }

    public static void main(String[] args) throws InterruptedException {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 60;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            long seed = 0x5DEECE66DL * (t + 1);
            ts[t] = new Thread(() -> {
                long r = seed;
                while (System.nanoTime() < end) {
                    r = r * 6364136223846793005L + 1442695040888963407L;
                    sink += step(12 + (int) ((r >>> 33) & 15), r);
                    // a little garbage: GC and allocation events beside the samples
                    sink += new long[64 + (int) (r & 63)].length;
                }
            }, "many-stacks-" + t);
            ts[t].start();
        }
        for (Thread t : ts)
            t.join();
    }
}
