"""SpMV Lab's GPU kernels from Python.

    from spmvlab import gpu
    if gpu.is_available():
        y = gpu.spmv(spmvlab.build("sell", A, sigma="auto"), x)   # the SELL-C-sigma kernel
        d = gpu.assemble(fmt, "csr_vector")                        # upload once, run often
        y = d.spmv(x)
        gpu.verify("pjds", A).passed                                # GPU vs host reference

In a build without CUDA every call that would touch a device raises NotCompiledError (a
NotImplementedError); is_compiled(), is_available(), device_count() and variants() always work.
"""
from ._spmvlab.gpu import (  # noqa: F401  (re-exported)
    DeviceInfo,
    DeviceMatrix,
    VerifyResult,
    assemble,
    device_count,
    device_info,
    is_available,
    is_compiled,
    variants,
)
from ._spmvlab import gpu as _gpu

__all__ = ["is_compiled", "is_available", "device_count", "device_info", "variants",
           "assemble", "spmv", "verify", "DeviceMatrix", "DeviceInfo", "VerifyResult"]


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
    return _gpu._verify(variant, as_matrix(matrix), dtype, **params)
