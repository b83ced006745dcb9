"""PTX mode texture fetches (tex .1d/.2d/.3d/.a1d/.a2d, tld4) on texture
objects over CUDA arrays, against a NumPy model of the CUDA programming
guide's "Texture Fetching": address modes on texel indices, normalized
coordinates scaled by the size, linear filtering at x - 0.5 with weights in
1.8 fixed point (the fraction rounded to the nearest 1/256), normalized-integer
reads, the border colour; and the clear errors."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from accelsim import PtxError
from accelsim.ptx import Device, Module
from ptx_lane_kernel import lane_kernel

GEOMS = {"1d": (1, False), "2d": (2, False), "3d": (3, False), "a1d": (1, True), "a2d": (2, True)}
NCOORDS = {"1d": 1, "2d": 2, "3d": 4, "a1d": 2, "a2d": 4}


def fetch_kernel(op: str) -> str:
    """A kernel running `op` (e.g. "tex.2d.v4.f32.f32") once per thread on
    coordinates from a (n, 4) b32 array, writing the 4 results."""
    geom = next(g for g in GEOMS if f".{g}." in op + ".")
    coords = ", ".join(f"%r{6 + k}" for k in range(NCOORDS[geom]))
    return lane_kernel(f"""\
  add.s64 %rd6, %rd3, %rd4;
  {op} {{%r10, %r11, %r12, %r13}}, [%rd1, {{{coords}}}];
  st.global.v4.b32 [%rd6], {{%r10, %r11, %r12, %r13}};""")


def run_fetch(dev, op, tex, coords: np.ndarray) -> np.ndarray:
    """(n, 4) raw result words of `op` at `coords` ((n, 4) uint32 words)."""
    n = len(coords)
    dc, dout = dev.to_device(np.ascontiguousarray(coords, dtype=np.uint32)), dev.zeros((n, 4), np.uint32)
    Module(fetch_kernel(op), name="fetch.ptx").get_function("k")[(n + 63) // 64, 64](
        tex, dc, dout, np.int32(n))
    res = dev.synchronize()
    assert res.completed and res.num_kernels == 1
    return dout.copy_to_host()


def coord_words(layers: np.ndarray | None, xyz: list[np.ndarray], geom: str) -> np.ndarray:
    cols = ([layers.astype(np.int32).view(np.uint32)] if layers is not None else [])
    cols += [np.asarray(c, np.float32).view(np.uint32) for c in xyz]
    words = np.zeros((len(cols[0]), 4), np.uint32)
    for k, c in enumerate(cols):
        words[:, k] = c
    return words


# --- the NumPy model -----------------------------------------------------------------------------

def address(i: int, n: int, mode: str, normalized: bool):
    """Texel index i of a dimension of n texels by the address mode; None: border."""
    if not normalized and mode in ("wrap", "mirror"):
        mode = "clamp"  # wrap and mirror need normalized coordinates
    if mode == "wrap":
        return i % n
    if mode == "mirror":
        m = i % (2 * n)
        return m if m < n else 2 * n - 1 - m
    if mode == "border":
        return i if 0 <= i < n else None
    return min(max(i, 0), n - 1)


def model_fetch(texels: np.ndarray, layer, xyz, *, filt, mode, normalized, border):
    """One fetch of texels (z, y, x, 4 channels as floats; a layered
    texture's layer already chosen) at float coordinates xyz."""
    dims = len(xyz)
    size = texels.shape[2::-1][:dims]  # x, y, z sizes

    def texel(idx):
        at = [address(int(i), int(n), mode, normalized) for i, n in zip(idx, size)]
        if any(a is None for a in at):
            return np.asarray(border, np.float64)
        at += [0] * (3 - dims)
        return texels[at[2], at[1], at[0]].astype(np.float64)

    u = [np.float32(c) * np.float32(n) if normalized else np.float32(c) for c, n in zip(xyz, size)]
    if filt == "point":
        return texel([np.floor(c) for c in u])
    ub = [np.float32(c - np.float32(0.5)) for c in u]
    base = [np.floor(c) for c in ub]
    alpha = [np.rint((c - b) * 256) / 256 for c, b in zip(ub, base)]
    out = np.zeros(4)
    for bits in itertools.product((0, 1), repeat=dims):
        w = np.prod([a if b else 1 - a for a, b in zip(alpha, bits)])
        if w:
            out += w * texel([b + k for b, k in zip(base, bits)])
    return out


def as_texels(data: np.ndarray, dims: int, layered: bool, channels: int, read: str) -> np.ndarray:
    """(layers, z, y, x, 4) float texels as a fetch returns them."""
    a = data if channels > 1 else data[..., None]
    if read == "normalized":
        info = np.iinfo(data.dtype)
        a = a.astype(np.float64) / info.max
        a = np.maximum(a, -1.0)
    a = a.astype(np.float64)
    spatial = a.shape[1 if layered else 0:-1]
    a = a.reshape((a.shape[0] if layered else 1,) + (1,) * (3 - dims) + spatial + (a.shape[-1],))
    return np.concatenate([a, np.zeros(a.shape[:-1] + (4 - a.shape[-1],))], axis=-1)


# --- sampling against the model -------------------------------------------------------------------

def check_against_model(dev, data, geom, *, channels=1, filt="point", mode="clamp", normalized=False,
                        read="element", border=(0, 0, 0, 0), n=200, seed=0):
    dims, layered = GEOMS[geom]
    rng = np.random.default_rng(seed)
    d = dev.to_device(data)
    tex = dev.texture_object(d, channels=channels, layered=layered, linear=False, address_mode=mode,
                             filter=filt, normalized_coords=normalized, read_mode=read, border_color=border)
    spatial = data.shape[1 if layered else 0:data.ndim - (channels > 1)]
    sizes = spatial[::-1]  # x first
    xyz = [(rng.uniform(-1.6, 2.6, n) if normalized else rng.uniform(-3, s + 3, n)).astype(np.float32)
           for s in sizes]
    xyz[0][:4] = [0.5, 0.75, 1.0, 1.5]  # texel centres and the guide's worked points
    layers = rng.integers(-1, data.shape[0] + 1, n) if layered else None
    got = run_fetch(dev, f"tex.{geom}.v4.f32.f32", tex, coord_words(layers, xyz, geom)).view(np.float32)
    texels = as_texels(data, dims, layered, channels, read)
    for k in range(n):
        lay = int(np.clip(layers[k], 0, data.shape[0] - 1)) if layered else 0
        want = model_fetch(texels[lay], lay, [c[k] for c in xyz], filt=filt, mode=mode, normalized=normalized,
                           border=border)
        np.testing.assert_allclose(got[k], want, rtol=2e-6, atol=1e-6, err_msg=f"point {k}: {[c[k] for c in xyz]}")


@pytest.mark.parametrize("mode", ["clamp", "border", "wrap", "mirror"])
@pytest.mark.parametrize("filt", ["point", "linear"])
@pytest.mark.parametrize("normalized", [False, True])
def test_tex2d_modes_and_filters(mode, filt, normalized):
    data = np.random.default_rng(1).uniform(-8, 8, (7, 11)).astype(np.float32)
    check_against_model(Device("QV100"), data, "2d", mode=mode, filt=filt, normalized=normalized,
                        border=(0.25, -1, 2, 3))


@pytest.mark.parametrize("geom", ["1d", "3d", "a1d", "a2d"])
@pytest.mark.parametrize("filt", ["point", "linear"])
def test_other_geometries(geom, filt):
    shapes = {"1d": (13,), "3d": (4, 5, 6), "a1d": (3, 9), "a2d": (3, 5, 6)}
    data = np.random.default_rng(2).uniform(-4, 4, shapes[geom]).astype(np.float32)
    check_against_model(Device("QV100"), data, geom, filt=filt, mode="wrap", normalized=geom != "a1d")


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.uint16, np.int16])
def test_normalized_integer_reads_with_linear_filtering(dtype):
    info = np.iinfo(dtype)
    data = np.random.default_rng(3).integers(info.min, info.max, (6, 9, 4), endpoint=True).astype(dtype)
    check_against_model(Device("QV100"), data, "2d", channels=4, filt="linear", read="normalized", mode="mirror",
                        normalized=True)


def test_half_channels_and_two_channel_textures():
    data = np.random.default_rng(4).uniform(-2, 2, (5, 7, 2)).astype(np.float16)
    check_against_model(Device("QV100"), data, "2d", channels=2, filt="linear")


def test_linear_weights_are_1_8_fixed_point():
    """Between texels 4 and 5 (x in texel units, centres at i + 0.5) the
    weight is the fraction of x - 0.5 rounded to a multiple of 1/256."""
    dev = Device("QV100")
    d = dev.to_device(np.array([4, 5, 6, 7], np.float32))
    tex = dev.texture_object(d, linear=False, filter="linear")
    x = np.array([0.75, 1.0, 0.5 + 1e-3, 0.5 + 0.3, 0.5 + 2.5 / 256, 1.5], np.float32)
    got = run_fetch(dev, "tex.1d.v4.f32.f32", tex, coord_words(None, [x], "1d")).view(np.float32)[:, 0]
    np.testing.assert_array_equal(got, np.float32([4.25, 4.5, 4.0, 4 + 77 / 256, 4 + 2 / 256, 5.0]))


def test_integer_reads_and_integer_coordinates():
    dev = Device("QV100")
    data = np.arange(-12, 12, dtype=np.int16).reshape(4, 6)
    tex = dev.texture_object(dev.to_device(data), linear=False, address_mode="border")
    xs, ys = np.array([0.5, 5.9, 6.1, 2.2], np.float32), np.array([0.5, 3.2, 1.0, -0.1], np.float32)
    got = run_fetch(dev, "tex.2d.v4.s32.f32", tex, coord_words(None, [xs, ys], "2d")).view(np.int32)
    np.testing.assert_array_equal(got[:, 0], [data[0, 0], data[3, 5], 0, 0])  # sign-extended; outside: border 0
    assert (got[:, 1:] == 0).all()  # one channel: the others read 0
    ints = np.array([[1, 2, 0, 0], [5, 3, 0, 0], [9, 1, 0, 0]], np.uint32)  # texel indices
    got = run_fetch(dev, "tex.2d.v4.s32.s32", tex, ints).view(np.int32)
    np.testing.assert_array_equal(got[:, 0], [data[2, 1], data[3, 5], 0])


def test_tld4_gathers_the_bilinear_footprint():
    dev = Device("QV100")
    data = np.random.default_rng(5).uniform(0, 1, (5, 6, 4)).astype(np.float32)
    tex = dev.texture_object(dev.to_device(data), channels=4, linear=False, address_mode="clamp")
    xs, ys = np.array([1.2, 0.1, 5.9, 3.5], np.float32), np.array([2.7, 0.2, 4.9, 1.5], np.float32)
    for comp, name in enumerate("rgba"):
        got = run_fetch(dev, f"tld4.{name}.2d.v4.f32.f32", tex, coord_words(None, [xs, ys], "2d")).view(np.float32)
        for k in range(len(xs)):
            i, j = int(np.floor(xs[k] - 0.5)), int(np.floor(ys[k] - 0.5))
            at = [(i, j + 1), (i + 1, j + 1), (i + 1, j), (i, j)]  # counter-clockwise from the lower left
            want = [data[min(max(b, 0), 4), min(max(a, 0), 5), comp] for a, b in at]
            np.testing.assert_array_equal(got[k], want)


def test_tex1dfetch_on_linear_memory_still_reads_zero_outside():
    dev = Device("QV100")
    x = np.arange(10, dtype=np.float32)
    tex = dev.texture_object(dev.to_device(x))
    got = run_fetch(dev, "tex.1d.v4.f32.s32", tex, np.array([[3, 0, 0, 0], [12, 0, 0, 0], [2**32 - 1, 0, 0, 0]],
                                                                 np.uint32)).view(np.float32)
    np.testing.assert_array_equal(got[:, 0], [3, 0, 0])


# --- errors -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("op, tex_kw, match", [
    ("tex.3d.v4.f32.f32", {}, "tex.3d reads a texture of that geometry; this texture object is over a 2-D"),
    ("tex.2d.v4.s32.f32", {}, "returns floats but the instruction reads 32-bit integers"),
    ("tex.2d.v4.f32.f32", {"dtype": np.int32}, "returns integers"),
    ("tex.2d.v4.s32.f32", {"dtype": np.int32, "filter": "linear"}, "linear filtering needs"),
])
def test_mismatched_texture_is_a_fault_naming_why(op, tex_kw, match):
    dev = Device("QV100")
    dtype = tex_kw.pop("dtype", np.float32)
    tex = dev.texture_object(dev.to_device(np.zeros((3, 4), dtype)), **tex_kw)
    with pytest.raises(PtxError, match=match):
        run_fetch(dev, op, tex, np.zeros((4, 4), np.uint32))


@pytest.mark.parametrize("line, match", [
    ("tex.2d.v4.f32.f32 {%r10, %r11, %r12, %r13}, [%rd1, {%r6}];", "takes 2 coordinate"),
    ("tex.3d.v4.f32.f32 {%r10, %r11, %r12, %r13}, [%rd1, {%r6, %r7, %r8}];", "takes 4 coordinate"),
    ("tex.v4.f32.f32 {%r10, %r11, %r12, %r13}, [%rd1, {%r6}];", "needs a geometry"),
    ("tld4.2d.v4.f32.f32 {%r10, %r11, %r12, %r13}, [%rd1, {%r6, %r7}];", "needs the component"),
    ("tex.2d.v4.f32.f32 %r10, [%rd1, {%r6, %r7}];", "vector of 4"),
])
def test_bad_texture_instructions_are_refused_at_launch(line, match):
    src = fetch_kernel("tex.1d.v4.f32.s32").replace(
        "tex.1d.v4.f32.s32 {%r10, %r11, %r12, %r13}, [%rd1, {%r6}];", line)
    dev = Device("QV100")
    with pytest.raises(PtxError, match=match):
        Module(src, name="bad.ptx").get_function("k")[1, 32](np.uint64(1), dev.zeros(4, np.uint32),
                                                                 dev.zeros(4, np.uint32), np.int32(0))
        dev.synchronize()


@pytest.mark.parametrize("kw, match", [
    ({"channels": 3}, "channels must be 1, 2 or 4"),
    ({"address_mode": "repeat"}, "address_mode must be"),
    ({"filter": "cubic"}, "filter must be"),
    ({"read_mode": "normalized"}, "8- and 16-bit integer"),
    ({"layered": True, "linear": True}, "linear texture is 1-D"),
])
def test_texture_object_arguments_are_checked(kw, match):
    dev = Device("QV100")
    with pytest.raises(PtxError, match=match):
        dev.texture_object(dev.zeros((3, 4), np.float32), **kw)


# --- module-scope references (toolkits before CUDA 12) -----------------------------------------------

TEXREF = """
.version 6.0
.target sm_60
.address_size 64
.global .texref img;
.global .surfref dst;
.visible .entry k(.param .u64 o)
{
  .reg .b32 %r<8>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [o];
  mov.u32 %r1, %tid.x;
  cvt.rn.f32.u32 %f1, %r1;
  add.f32 %f1, %f1, 0f3F000000;
  mov.f32 %f2, 0f3FC00000;
  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [img, {%f1, %f2}];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.f32 [%rd3], %f3;
  shl.b32 %r2, %r1, 2;
  mov.b32 %r3, %f3;
  sust.b.1d.b32.trap [dst, {%r2}], {%r3};
  ret;
}
"""


def test_texref_and_surfref_bound_from_the_host():
    dev = Device("QV100")
    img = np.arange(24, dtype=np.float32).reshape(3, 8)
    mod = Module(TEXREF, name="texref.ptx")
    out, surf_arr = dev.zeros(8, np.float32), dev.zeros(8, np.float32)
    mod.bind_texture("img", dev, dev.texture_object(dev.to_device(img)))
    mod.bind_texture("dst", dev, dev.surface_object(surf_arr))
    mod.get_function("k")[1, 8](out)
    assert dev.synchronize().completed
    np.testing.assert_array_equal(out.copy_to_host(), img[1])
    np.testing.assert_array_equal(surf_arr.copy_to_host(), img[1])


def test_unbound_texref_is_a_fault_naming_it():
    dev = Device("QV100")
    Module(TEXREF, name="texref.ptx").get_function("k")[1, 8](dev.zeros(8, np.float32))
    with pytest.raises(PtxError, match="the reference 'img' is bound to no texture or surface object"):
        dev.synchronize()
