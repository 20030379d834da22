"""SpMV Lab's GPU kernels from Python.

    from spmvlab import gpu
    if gpu.is_available():
        y = gpu.spmv(spmvlab.build("sell", A, sigma="auto"), x)   # the SELL-C-sigma kernel
        d = gpu.assemble(fmt, "csr_vector")                        # upload once, run often
        y = d.spmv(x)
        gpu.verify("pjds", A).passed                                # GPU vs host reference

In a build without CUDA every call that would touch a device raises NotCompiledError (a
NotImplementedError). In a build with CUDA on a machine where the CUDA runtime finds no usable
GPU (no NVIDIA driver, a driver older than the runtime, no device) they raise
GpuUnavailableError (a GpuError, a RuntimeError) saying so, with CUDA's own reason. is_compiled(),
is_available(), device_count() and variants() always work.
"""
from ._spmvlab.gpu import (  # noqa: F401  (re-exported)
    DeviceInfo,
    DeviceMatrix,
    VerifyResult,
    device_count,
    is_available,
    is_compiled,
    variants,
)
from ._spmvlab import gpu as _gpu
from ._spmvlab import GpuError as _GpuError
from ._spmvlab import GpuUnavailableError as _GpuUnavailableError

__all__ = ["is_compiled", "is_available", "device_count", "device_info", "variants",
           "assemble", "spmv", "verify", "DeviceMatrix", "DeviceInfo", "VerifyResult"]


def _unavailable(reason):
    e = _GpuUnavailableError(
        "no usable CUDA device: this spmvlab has GPU kernels compiled in, but the CUDA runtime "
        "%s. Check `nvidia-smi`; spmvlab.gpu.is_available() tells in advance, and `fmt @ x` is "
        "the host reference." % reason)
    e.cuda_error = 0  # CUDA gave no error number for it
    return e


def _require_device():
    """Raises GpuUnavailableError before any upload when kernels are compiled in but no device
    is usable (a build without CUDA goes on to the call, which raises NotCompiledError)."""
    if not _gpu.is_compiled() or _gpu.device_count() > 0:
        return
    try:
        _gpu.device_info()  # CUDA's reason (cudaErrorInsufficientDriver, ...) as the message
    except _GpuUnavailableError:
        raise
    except _GpuError as e:
        raise _unavailable("reports no device (%s)" % e) from None
    raise _unavailable("reports 0 devices")


def device_info():
    """DeviceInfo of the current device; NotCompiledError without CUDA, GpuUnavailableError
    without a usable device."""
    _require_device()
    return _gpu.device_info()


def assemble(format, variant=""):
    """Uploads a built Format to the GPU with one kernel variant (variants(); '' = the
    format's default kernel): a DeviceMatrix. NotCompiledError in a build without CUDA,
    GpuUnavailableError without a usable device, InvalidArgumentError when the variant does not
    run this format."""
    _require_device()
    return _gpu.assemble(format, variant)


def spmv(format, x, variant="", alpha=1.0, beta=0.0, y=None, order="original"):
    """alpha * A @ x + beta * y computed on the GPU by `format`'s kernel (a built Format;
    variant: one of variants() that runs this format, '' = its default kernel). Uploads the
    matrix, runs once and returns a new array; use assemble() to run a matrix many times."""
    return assemble(format, variant).spmv(x, alpha=alpha, beta=beta, y=y, order=order)


def verify(variant, matrix, dtype=None, **params):
    """Runs GPU variant `variant` on `matrix` (anything spmvlab.as_matrix takes) and compares
    with the host reference on random x and y: a VerifyResult (passed, error, tolerance,
    message). params: the format parameters, as for spmvlab.build."""
    from . import as_matrix
    _require_device()
    return _gpu._verify(variant, as_matrix(matrix), dtype, **params)
