"""PTX mode surfaces: suld.b / sust.b on surface objects over CUDA arrays
(.1d .2d .3d .a1d .a2d; .b8 to .b64, scalar and vectors; x in bytes), the
out-of-range modes (.trap a fault naming the coordinates, .clamp the
nearest location, .zero reads 0 and drops stores), against NumPy."""
from __future__ import annotations

import numpy as np
import pytest

from accelsim import PtxError
from accelsim.ptx import Device, Module
from ptx_lane_kernel import lane_kernel

NCOORDS = {"1d": 1, "2d": 2, "3d": 4, "a1d": 2, "a2d": 4}


def surface_kernel(op: str, geom: str, nvec: int, wide: bool) -> str:
    """A kernel running `op` once per thread at coordinates from a (n, 4)
    s32 array; suld writes its nvec results to out[i], sust stores
    data[i]'s."""
    coords = ", ".join(f"%r{6 + k}" for k in range(NCOORDS[geom]))
    regs = ", ".join((f"%rd{10 + k}" if wide else f"%r{10 + k}") for k in range(nvec))
    esz = 8 if wide else 4
    ld = "ld.global.b64" if wide else "ld.global.b32"
    st = "st.global.b64" if wide else "st.global.b32"
    moves = "\n".join(f"  {ld} {(f'%rd{10 + k}' if wide else f'%r{10 + k}')}, [%rd7+{k * esz}];"
                      for k in range(nvec))
    stores = "\n".join(f"  {st} [%rd7+{k * esz}], {(f'%rd{10 + k}' if wide else f'%r{10 + k}')};"
                       for k in range(nvec))
    access = (f"{op} {{{regs}}}, [%rd1, {{{coords}}}];\n{stores}" if op.startswith("suld")
              else f"{moves}\n  {op} [%rd1, {{{coords}}}], {{{regs}}};")
    return lane_kernel(f"""\
  mul.wide.s32 %rd6, %r5, {nvec * esz};
  add.s64 %rd7, %rd3, %rd6;
  {access}""")


def run_surface(dev, op, geom, surf, coords, data_or_n, nvec=1, wide=False):
    coords = np.ascontiguousarray(coords, dtype=np.int32)
    n = len(coords)
    dt = np.uint64 if wide else np.uint32
    io = dev.to_device(np.ascontiguousarray(data_or_n, dt)) if op.startswith("sust") else dev.zeros((n, nvec), dt)
    Module(surface_kernel(op, geom, nvec, wide), name="surf.ptx").get_function("k")[(n + 63) // 64, 64](
        surf, dev.to_device(coords), io, np.int32(n))
    res = dev.synchronize()
    assert res.completed and res.num_kernels == 1
    return io.copy_to_host()


def test_suld_2d_reads_bytes_rows_and_vectors():
    dev = Device("QV100")
    img = np.arange(5 * 6 * 4, dtype=np.uint8).reshape(5, 6, 4)  # uchar4 texels
    surf = dev.surface_object(dev.to_device(img), channels=4)
    coords = np.array([[4 * x, y, 0, 0] for x, y in [(0, 0), (5, 4), (2, 3)]])
    got = run_surface(dev, "suld.b.2d.v4.b8.trap", "2d", surf, coords, None, nvec=4)
    np.testing.assert_array_equal(got, img[[0, 4, 3], [0, 5, 2]].astype(np.uint32))
    got = run_surface(dev, "suld.b.2d.b32.trap", "2d", surf, coords, None)  # the whole texel as one word
    np.testing.assert_array_equal(got[:, 0], img[[0, 4, 3], [0, 5, 2]].copy().view(np.uint32)[:, 0])
    got = run_surface(dev, "suld.b.2d.v2.b16.trap", "2d", surf, coords, None, nvec=2)
    np.testing.assert_array_equal(got, img[[0, 4, 3], [0, 5, 2]].copy().view(np.uint16).astype(np.uint32))


@pytest.mark.parametrize("geom, shape, layered", [("1d", (10,), False), ("2d", (4, 7), False),
                                                  ("3d", (3, 4, 5), False), ("a1d", (3, 8), True),
                                                  ("a2d", (2, 3, 5), True)])
def test_sust_then_suld_every_geometry(geom, shape, layered):
    dev = Device("QV100")
    arr = dev.zeros(shape, np.float32)
    surf = dev.surface_object(arr, layered=layered)
    rng = np.random.default_rng(0)
    idx = np.array(list(np.ndindex(*shape)))
    rng.shuffle(idx)
    # coordinates: (layer,) x bytes, y, z: the array's axes reversed, a layer axis first
    if layered:
        coords = np.column_stack([idx[:, 0], idx[:, :0:-1]])
        coords[:, 1] *= 4
    else:
        coords = idx[:, ::-1].copy()
        coords[:, 0] *= 4
    coords = np.pad(coords, ((0, 0), (0, 4 - coords.shape[1])))
    values = rng.uniform(-5, 5, len(idx)).astype(np.float32)
    run_surface(dev, f"sust.b.{geom}.b32.trap", geom, surf, coords, values.view(np.uint32)[:, None])
    want = np.zeros(shape, np.float32)
    want[tuple(idx.T)] = values
    np.testing.assert_array_equal(arr.copy_to_host(), want)
    got = run_surface(dev, f"suld.b.{geom}.b32.trap", geom, surf, coords, None)
    np.testing.assert_array_equal(got[:, 0].view(np.float32), values)


def test_out_of_range_modes():
    dev = Device("QV100")
    img = np.arange(1, 13, dtype=np.uint32).reshape(3, 4)
    arr = dev.to_device(img)
    surf = dev.surface_object(arr)
    outside = np.array([[-4, 0, 0, 0], [16, 1, 0, 0], [4, 7, 0, 0], [8, 1, 0, 0]])
    got = run_surface(dev, "suld.b.2d.b32.zero", "2d", surf, outside, None)
    np.testing.assert_array_equal(got[:, 0], [0, 0, 0, img[1, 2]])
    got = run_surface(dev, "suld.b.2d.b32.clamp", "2d", surf, outside, None)
    np.testing.assert_array_equal(got[:, 0], [img[0, 0], img[1, 3], img[2, 1], img[1, 2]])
    run_surface(dev, "sust.b.2d.b32.zero", "2d", surf, outside, np.full((4, 1), 99, np.uint32))
    want = img.copy()
    want[1, 2] = 99  # the one inside; the others are dropped
    np.testing.assert_array_equal(arr.copy_to_host(), want)
    run_surface(dev, "sust.b.2d.b32.clamp", "2d", surf, outside[:3], np.full((3, 1), 77, np.uint32))
    want[0, 0] = want[1, 3] = want[2, 1] = 77
    np.testing.assert_array_equal(arr.copy_to_host(), want)
    with pytest.raises(PtxError, match=r"surface access at \(16, 1, 0\) is outside the surface \(.trap\)"):
        run_surface(dev, "suld.b.2d.b32.trap", "2d", surf, outside[1:2], None)


def test_b64_accesses():
    dev = Device("QV100")
    vals = np.arange(6, dtype=np.uint64) * np.uint64(0x100000001)
    arr = dev.to_device(vals.view(np.uint32).reshape(6, 2))  # 6 texels of 2 x 32 bits
    surf = dev.surface_object(arr, channels=2)
    got = run_surface(dev, "suld.b.1d.v2.b64.trap", "1d", surf, np.array([[0, 0, 0, 0], [32, 0, 0, 0]]), None,
                      nvec=2, wide=True)
    np.testing.assert_array_equal(got, vals.reshape(3, 2)[[0, 2]])


@pytest.mark.parametrize("op, coords, kw, match", [
    ("suld.b.2d.b32.trap", [[2, 0, 0, 0]], {}, "not a multiple of the 4-byte access"),
    ("suld.b.3d.b32.trap", [[0, 0, 0, 0]], {}, "needs a surface of that geometry; this surface object is over a 2-D"),
    ("suld.b.2d.b32.trap", [[0, 0, 0, 0]], {"texture": True}, "is a texture object; suld and sust access surface"),
])
def test_surface_faults_name_why(op, coords, kw, match):
    dev = Device("QV100")
    arr = dev.zeros((3, 4), np.float32)
    handle = dev.texture_object(arr) if kw.get("texture") else dev.surface_object(arr)
    geom = op.split(".")[2]
    with pytest.raises(PtxError, match=match):
        run_surface(dev, op, geom, handle, np.array(coords), None)


@pytest.mark.parametrize("op, regs, match", [
    ("suld.b.2d.v2.b32.trap", "{%r10}", "names 1 register"),
    ("suld.b.2d.f32.trap", "{%r10}", "modifier '.f32' is not allowed on 'suld'"),
    ("suld.p.2d.b32.trap", "{%r10}", "modifier '.p' is not allowed on 'suld'"),
])
def test_bad_surface_instructions_are_refused(op, regs, match):
    src = surface_kernel("suld.b.2d.b32.trap", "2d", 1, False).replace(
        "suld.b.2d.b32.trap {%r10}", f"{op} {regs}")
    dev = Device("QV100")
    with pytest.raises(PtxError, match=match):
        Module(src, name="bad.ptx").get_function("k")[1, 32](np.uint64(1), dev.zeros(4, np.int32),
                                                                dev.zeros(4, np.uint32), np.int32(0))
        dev.synchronize()
