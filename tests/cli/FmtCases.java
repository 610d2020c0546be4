// Prints the JDK 25 forms of durations, data amounts, %.Nf numbers and
// Double/Float.toString (subnormals: at least two digits, 4.9E-324) that
// tests/cli/test_fmt_pretty.c checks jfrtool against (tests/cli/fmt-cases.tsv).
// Regenerate (maintainers, JDK 25):
//   java --add-exports jdk.jfr/jdk.jfr.internal.util=ALL-UNNAMED \
//        tests/cli/FmtCases.java > tests/cli/fmt-cases.tsv
import java.time.Duration;
public class FmtCases {
    static Object vf(String m, Object... a) throws Exception {
        Class<?> c = Class.forName("jdk.jfr.internal.util.ValueFormatter");
        for (var meth : c.getMethods()) if (meth.getName().equals(m) && meth.getParameterCount() == a.length) return meth.invoke(null, a);
        throw new RuntimeException(m);
    }
    public static void main(String[] args) throws Exception {
        long[] ns = {1, 500, 999, 1000, 1234, 77149, 77150, 999499, 999500, 9995000, 99950000, 999500000L, 999999999L,
                     1000000000L, 1004999999L, 1005000000L, 9995000000L, 59950000000L, 59999000000L, 60000000000L, 61499999999L,
                     61500000000L, 3599500000000L, 3600000000000L, 86369000000000L, 86400000000000L, 90000000000000L, 1800000000000000L,
                     -1, -77150, -1500000000L};
        for (long n : ns) System.out.println("D\t" + n + "\t" + vf("formatDuration", Duration.ofNanos(n)));
        long[] b = {0, 1, -1, 2, 1023, 1024, 1025, 1536, 1048575, 1048576, 1073741824L, 1099511627776L, 123456789012L, -2048, Long.MAX_VALUE};
        for (long v : b) System.out.println("B\t" + v + "\t" + vf("formatBytes", v) + "\t" + vf("formatBits", v) + "\t" + vf("formatBytesPerSecond", v) + "\t" + vf("formatBitsPerSecond", v));
        double[] f = {0.125, 0.135, 1.005, 2.675, 0.005, 0.0049, 9.995, 99.995, 0.0, -0.001, 1e-7, 123456.785, 0.5, 1.5, 2.5, 1e20, 3.14159};
        int[] p = {0, 1, 2, 3, 6, 9};
        for (double d : f) for (int pr : p) System.out.println("F\t" + Double.toString(d) + "\t" + pr + "\t" + String.format("%." + pr + "f", d));
        // toString of doubles and floats by their bits: the smallest
        // subnormals, then subnormals and any values from a fixed seed
        java.util.Random r = new java.util.Random(31);
        for (int i = 0; i < 600; i++) {
            long bits = i < 64 ? i + 1 : i % 3 == 0 ? r.nextLong() & 0x000fffffffffffffL
                      : i % 3 == 1 ? (long) r.nextInt(1 << 20) : r.nextLong();
            double d = Double.longBitsToDouble(bits);
            if (!Double.isNaN(d)) System.out.println("T\t" + Long.toHexString(bits) + "\t" + d);
            int fb = i < 64 ? i + 1 : i % 2 == 0 ? r.nextInt() & 0x007fffff : r.nextInt();
            float x = Float.intBitsToFloat(fb);
            if (!Float.isNaN(x)) System.out.println("G\t" + Integer.toHexString(fb) + "\t" + x);
        }
    }
}
