"""The flame graphs' Java palette as the tests read it back (doc/profiles.md):
the colour a frame kind must be drawn in, and the colour name of a pixel."""
import colorsys

# by "k" code (jfrtool/flame_tree.h): FlameGraph's and async-profiler's palette
K_CLASS = {0: "green", 1: "aqua", 2: "light green", 3: "red", 4: "yellow", 5: "grey",
           6: "grey", 8: "orange"}


def hue_class(rgb):
    """The palette's colour name of an (r, g, b) by hue and lightness."""
    h, l, s = colorsys.rgb_to_hls(*(c / 255 for c in rgb))
    h *= 360
    if s < 0.08:
        return "grey"
    if h < 15 or h >= 345:
        return "red"
    if h < 45:
        return "orange"
    if h < 75:
        return "yellow"
    if h < 150:
        return "light green" if l > 0.67 else "green"
    return "aqua" if h < 210 else "other"
