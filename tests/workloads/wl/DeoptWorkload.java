package wl;

import java.io.InputStream;
import java.util.function.ToIntFunction;

/**
 * A deoptimization storm, for the "deoptimization-storm" rule of
 * `jfrtool rules` and `jfrtool report` (doc/report.md): the same small
 * class is loaded again and again, each copy by a class loader of its
 * own, as a framework that makes a class per request would. Each copy's
 * method is called with Integers until the JIT compiles it for them (its
 * other branch never taken, so left out of the compiled code), then once
 * with a String: the compiled code is thrown away (an "unstable_if" or
 * "class_check" uncommon trap, one jdk.Deoptimization event) and the
 * method runs interpreted again. Hundreds of copies a second make
 * hundreds of deoptimizations a second.
 *
 *     java -Xbatch wl.DeoptWorkload [copies]
 *
 * -Xbatch compiles in the foreground, so each copy is compiled before its
 * String comes and every copy deoptimizes.
 */
public final class DeoptWorkload {
    /** What each copy is: compiled for Integers, then given a String. */
    public static final class Hot implements ToIntFunction<Object> {
        @Override
        public int applyAsInt(Object o) {
            if (o instanceof Integer)
                return ((Integer) o) + 1;
            return o.hashCode() ^ 0x5bd1e995; // never taken while warming up
        }
    }

    /** Defines Hot anew: a class loader per copy. */
    private static final class CopyLoader extends ClassLoader {
        private final byte[] bytes;

        CopyLoader(byte[] bytes) {
            super(DeoptWorkload.class.getClassLoader());
            this.bytes = bytes;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.equals(Hot.class.getName())) {
                synchronized (getClassLoadingLock(name)) {
                    Class<?> c = findLoadedClass(name);
                    if (c == null)
                        c = defineClass(name, bytes, 0, bytes.length);
                    return c;
                }
            }
            return super.loadClass(name, resolve);
        }
    }

    private static volatile long sink;

    public static void main(String[] args) throws Exception {
        int copies = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        byte[] bytes;
        try (InputStream in = DeoptWorkload.class.getResourceAsStream("DeoptWorkload$Hot.class")) {
            bytes = in.readAllBytes();
        }
        Integer one = 1;
        for (int c = 0; c < copies; c++) {
            Class<?> cls = new CopyLoader(bytes).loadClass(Hot.class.getName());
            @SuppressWarnings("unchecked")
            ToIntFunction<Object> hot =
                (ToIntFunction<Object>) cls.getDeclaredConstructor().newInstance();
            long s = 0;
            for (int i = 0; i < 30_000; i++)
                s += hot.applyAsInt(one);
            s += hot.applyAsInt("storm"); // the compiled code is thrown away
            sink += s;
        }
        System.out.println(copies + " copies, sink " + sink);
    }
}
