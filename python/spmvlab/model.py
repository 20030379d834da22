"""SpMV Lab's performance models from Python.

Kreutzer et al. §II.B (bandwidth model, PCIe thresholds):

    from spmvlab import model
    p = model.predict(A, "H100", "double")        # Prediction: code balance, T_MVM, GF/s, ...
    model.code_balance(n_nzr=7, alpha=1.0)        # bytes per flop, eq. 1

The per-format kernel model (what each GPU kernel variant loads and waits for):

    for s, t in model.predict_kernels(A, "H100", variants=["csr", "ell", "sell"], sigma="auto"):
        print(s.variant, s.loaded_slots, t.gflops, t.bound)
    model.predict_variant(A, "sell", "H100", "double", sigma="auto").time_s

Both call spmv::model::predict_variants, the one per-format model call that `spmvlab recommend`,
`spmvlab model --format` and the GUI's Timing, Sweep and Advisor views make: the same matrix,
variant, parameters, precision and profile give the same number everywhere.
"""
from ._spmvlab.model import (  # noqa: F401  (re-exported)
    FormatModelConstants,
    FormatPrediction,
    GpuProfile,
    KernelConstants,
    KernelShape,
    Prediction,
    Thresholds,
    builtin_constants,
    code_balance,
    custom_profile,
    device_bytes,
    dram_bytes,
    find_profile,
    kreutzer_thresholds,
    kreutzer_worked_cases,
    l2_sectors,
    min_alpha,
    modelled_variants,
    overlap_time,
    predict_kernel,
    profiles,
    t_mvm_seconds,
    t_pci_seconds,
)
from ._spmvlab import model as _model

__all__ = ["profiles", "find_profile", "custom_profile", "predict", "min_alpha", "code_balance",
           "device_bytes", "t_mvm_seconds", "t_pci_seconds", "kreutzer_thresholds",
           "kreutzer_worked_cases", "modelled_variants", "kernel_shapes", "predict_kernel",
           "predict_kernels", "predict_variant", "builtin_constants", "dram_bytes", "l2_sectors",
           "overlap_time", "GpuProfile", "Prediction", "Thresholds", "KernelShape", "FormatPrediction",
           "FormatModelConstants", "KernelConstants"]


def predict(matrix, profile="H100", precision="double", alpha=1.0):
    """Kreutzer's bandwidth model for a matrix (or its RowLengthStats) on a GPU profile (a name
    such as "H100" or a GpuProfile): a Prediction. alpha in [1/N_nzr, 1] is the fraction of x
    loads that go to memory (1: no reuse; model.min_alpha(n_nzr): perfect reuse)."""
    from . import RowLengthStats, row_stats
    stats = matrix if isinstance(matrix, RowLengthStats) else row_stats(matrix)
    return _model._predict(stats, profile, precision, alpha)


def kernel_shapes(matrix, variants=None, **params):
    """KernelShape of every modelled GPU variant (or the named ones) on `matrix`: slots loaded,
    bytes, sectors of x, critical trips, warp trips. params as for spmvlab.build (sigma="auto"
    resolved as `spmvlab bench --sigma auto` does). Nothing is allocated per layout."""
    from . import as_matrix
    return _model._kernel_shapes(as_matrix(matrix), variants, **params)


def predict_kernels(matrix, profile="H100", precision="double", variants=None, constants=None,
                    **params):
    """[(KernelShape, FormatPrediction)] for every modelled variant (or the named ones), priced
    with the profile's built-in constants unless `constants` is given (spmv::model::
    predict_variants, the number `spmvlab recommend` ranks by)."""
    from . import as_matrix
    return _model._predict_variants(as_matrix(matrix), profile, precision, variants, constants,
                                    **params)


def predict_variant(matrix, variant, profile="H100", precision="double", constants=None,
                    **params):
    """The per-format fitted model's FormatPrediction for one GPU kernel variant ("sell",
    "sell_i16", "csr_vector", ...) on `matrix`: the same number as `spmvlab recommend --json`'s
    predicted_us and `spmvlab model --format VARIANT --json` for the same parameters."""
    return predict_kernels(matrix, profile, precision, [variant], constants, **params)[0][1]
