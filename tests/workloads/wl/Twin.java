package wl;

/**
 * The class wl.IdentityWorkload defines twice, with two class loaders:
 * work that allocates Twins, spins with the Twin's monitor held (so that
 * the other worker waits for it), and now and then throws and catches a
 * TwinError.
 */
public final class Twin {
    private final long[] payload = new long[16];
    private static long rounds;

    public long work(int n) {
        long x = 0;
        for (int i = 0; i < n; i++) {
            synchronized (this) {
                Twin t = new Twin();
                x += t.spin(200_000);
            }
            if (++rounds % 64 == 0) {
                try {
                    fail();
                } catch (TwinError e) {
                    x++;
                }
            }
        }
        return x;
    }

    private long spin(long nanos) {
        long end = System.nanoTime() + nanos, x = payload.length;
        while (System.nanoTime() < end)
            x += x * 31 + 7;
        return x;
    }

    private static void fail() {
        throw new TwinError();
    }
}
