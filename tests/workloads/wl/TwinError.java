package wl;

/** The error wl.Twin throws (defined by each of its class loaders too). */
public final class TwinError extends Error {
    private static final long serialVersionUID = 1L;

    public TwinError() {
        super("twin", null, false, false);
    }
}
