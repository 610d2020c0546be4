# workloadlib.sh - sourced by the tests/workloads/make-*.sh scripts that
# record our workloads with JDK 25 (maintainers only): their -o option,
# the JDK, and a scratch folder for the compiled classes.
#
#   here=$(cd "$(dirname "$0")" && pwd)
#   . "$here/workloadlib.sh"
#   workload_start DEFAULT-OUTDIR USAGE-LINES "$@"   # sets out, java_home,
#                                                   # tmp (removed at exit), classes
#   workload_compile RELEASE SOURCE...               # javac into $classes

workload_start() { # DEFAULT-OUTDIR USAGE-LINES (sed range of $0's help) ARGS...
    out=$1
    usage=$2
    shift 2
    while getopts o: opt; do
        case $opt in
            o) out=$OPTARG ;;
            *) sed -n "${usage}p" "$0" >&2; exit 2 ;;
        esac
    done
    java_home=${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
    mkdir -p "$out"
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    classes=$tmp/classes
}

workload_compile() { # RELEASE SOURCE...
    release=$1
    shift
    "$java_home/bin/javac" --release "$release" -d "$classes" "$@"
}
