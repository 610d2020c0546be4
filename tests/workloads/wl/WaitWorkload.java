package wl;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Threads that wait in every way the profile kinds count: contended monitors
 * (jdk.JavaMonitorEnter), a contended ReentrantLock and a blocking queue
 * (jdk.ThreadPark), Object.wait (jdk.JavaMonitorWait), loopback socket and
 * file reads and writes, and thrown exceptions and errors. Each kind has its
 * own thread names and methods, so their stacks are told apart in tests.
 *
 *     java wl.WaitWorkload [seconds]
 *
 * Operations are paced (a few hundred per second per kind) to keep a
 * recording with zero thresholds small.
 */
public final class WaitWorkload {
    private static final Object MONITOR = new Object();
    private static final ReentrantLock LOCK = new ReentrantLock();
    private static final Object SIGNAL = new Object();
    private static volatile boolean running = true;
    private static long sink;

    public static void main(String[] args) throws Exception {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 3;
        Path dir = Files.createTempDirectory("wl-wait");
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread[] threads = {
                start("monitor-a", WaitWorkload::monitorHolder),
                start("monitor-b", WaitWorkload::monitorHolder),
                start("lock-a", WaitWorkload::lockHolder),
                start("lock-b", WaitWorkload::lockHolder),
                start("queue-taker", WaitWorkload::queueTaker),
                start("waiter", WaitWorkload::waiter),
                start("notifier", WaitWorkload::notifier),
                start("echo-server", () -> echoServer(server)),
                start("socket-client", () -> socketClient(server.getLocalPort())),
                start("file-io", () -> fileIo(dir)),
                start("thrower", WaitWorkload::thrower),
            };
            Thread.sleep(seconds * 1000);
            running = false;
            synchronized (SIGNAL) {
                SIGNAL.notifyAll();
            }
            for (Thread t : threads)
                t.join(5000);
        } finally {
            try (var files = Files.list(dir)) {
                for (Path p : (Iterable<Path>) files::iterator)
                    Files.deleteIfExists(p);
            }
            Files.deleteIfExists(dir);
        }
        System.out.println("done " + (sink & 1));
    }

    interface Body {
        void run() throws Exception;
    }

    private static Thread start(String name, Body body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Exception e) {
                if (running)
                    throw new RuntimeException(e);
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void spin(long nanos) {
        long end = System.nanoTime() + nanos;
        long x = 0;
        while (System.nanoTime() < end)
            x += x * 31 + 7;
        sink += x;
    }

    /* two threads take turns holding one monitor for ~2 ms */
    private static void monitorHolder() {
        while (running)
            holdMonitor();
    }

    private static void holdMonitor() {
        synchronized (MONITOR) {
            spin(2_000_000);
        }
    }

    /* the same with a ReentrantLock: the loser parks */
    private static void lockHolder() {
        while (running)
            holdLock();
    }

    private static void holdLock() {
        LOCK.lock();
        try {
            spin(2_000_000);
        } finally {
            LOCK.unlock();
        }
    }

    private static final BlockingQueue<Integer> QUEUE = new ArrayBlockingQueue<>(4);

    /* parks in take() until the filler (the lock holders) offer */
    private static void queueTaker() throws InterruptedException {
        while (running) {
            Integer v = QUEUE.poll(5, java.util.concurrent.TimeUnit.MILLISECONDS);
            if (v != null)
                sink += v;
            QUEUE.offer(1);
        }
    }

    private static void waiter() throws InterruptedException {
        while (running)
            waitForSignal();
    }

    private static void waitForSignal() throws InterruptedException {
        synchronized (SIGNAL) {
            SIGNAL.wait(20);
        }
    }

    private static void notifier() throws InterruptedException {
        while (running) {
            Thread.sleep(7);
            synchronized (SIGNAL) {
                SIGNAL.notifyAll();
            }
        }
    }

    /* echoes each 64-byte request after a short delay, so reads block */
    private static void echoServer(ServerSocket server) throws IOException, InterruptedException {
        try (Socket s = server.accept()) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            byte[] buf = new byte[64];
            while (running) {
                int n = readRequest(in, buf);
                if (n < 0)
                    return;
                Thread.sleep(3);
                out.write(buf, 0, n);
                out.flush();
            }
        }
    }

    private static int readRequest(InputStream in, byte[] buf) throws IOException {
        return in.read(buf);
    }

    private static void socketClient(int port) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            byte[] buf = new byte[64];
            while (running) {
                out.write(buf);
                out.flush();
                if (readReply(in, buf) < 0)
                    return;
            }
        }
    }

    private static int readReply(InputStream in, byte[] buf) throws IOException {
        return in.read(buf);
    }

    private static void fileIo(Path dir) throws IOException, InterruptedException {
        byte[] block = new byte[256 * 1024];
        int i = 0;
        while (running) {
            Path p = dir.resolve("f" + (i++ % 4));
            writeFile(p, block);
            sink += readFile(p).length;
            Thread.sleep(5);
        }
    }

    private static void writeFile(Path p, byte[] block) throws IOException {
        try (OutputStream out = Files.newOutputStream(p)) {
            out.write(block);
        }
    }

    private static byte[] readFile(Path p) throws IOException {
        try (InputStream in = Files.newInputStream(p)) {
            return in.readAllBytes();
        }
    }

    private static void thrower() throws InterruptedException {
        int i = 0;
        while (running) {
            try {
                if (i++ % 5 == 0)
                    throwError(i);
                else
                    throwException(i);
            } catch (IllegalStateException | AssertionError e) {
                sink += e.getMessage().length();
            }
            Thread.sleep(2);
        }
    }

    private static void throwException(int i) {
        throw new IllegalStateException("exception " + i);
    }

    private static void throwError(int i) {
        throw new AssertionError("error " + i);
    }
}
