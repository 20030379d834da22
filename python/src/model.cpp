/// spmv::model from Python: the bandwidth model of Kreutzer et al. §II.B (model/performance.hpp)
/// and the per-format kernel model (model/format_model.hpp: kernel_shapes, predict).
#include <cstdint>
#include <optional>
#include <pybind11/stl.h>
#include <string>
#include <string_view>
#include <vector>

#include <spmv/analysis/row_stats.hpp>
#include <spmv/error.hpp>
#include <spmv/model/format_model.hpp>
#include <spmv/model/gpu_profile.hpp>
#include <spmv/model/performance.hpp>

#include "common.hpp"

namespace spmv::python {
namespace {

using model::Precision;

Precision precision_arg(const std::string& s)
{
    if (s == "double" || s == "DP" || s == "dp" || s == "float64") {
        return Precision::double_precision;
    }
    if (s == "single" || s == "SP" || s == "sp" || s == "float32" || s == "float") {
        return Precision::single_precision;
    }
    SPMV_THROW(InvalidArgument, "precision must be 'double' or 'single', not '" + s + "'");
}

model::AlphaCase alpha_case_arg(const std::string& s)
{
    if (s == "no_reuse") {
        return model::AlphaCase::no_reuse;
    }
    if (s == "perfect_reuse") {
        return model::AlphaCase::perfect_reuse;
    }
    if (s == "perfect_reuse_dropped") {
        return model::AlphaCase::perfect_reuse_dropped;
    }
    SPMV_THROW(InvalidArgument,
               "alpha_case must be 'no_reuse', 'perfect_reuse' or "
               "'perfect_reuse_dropped', not '" +
                   s + "'");
}

/// A profile by name, or a GpuProfile object as it is.
model::GpuProfile profile_arg(const py::object& o)
{
    if (py::isinstance<py::str>(o)) {
        return model::find_profile(o.cast<std::string>());
    }
    return o.cast<model::GpuProfile>();
}

}  // namespace

void bind_model(py::module_& top)
{
    auto m = top.def_submodule("model", "Performance models (use spmvlab.model).");

    py::class_<model::GpuProfile>(m, "GpuProfile", R"doc(The hardware numbers of the bandwidth
model: memory_bandwidth_gbs (B_GPU, ATTAINABLE streaming bandwidth), pcie_bandwidth_gbs (B_PCI,
one direction), peak_gflops_dp, peak_gflops_sp (0: unknown), note (where they come from).)doc")
        .def_readonly("name", &model::GpuProfile::name)
        .def_readonly("memory_bandwidth_gbs", &model::GpuProfile::memory_bandwidth_gbs)
        .def_readonly("pcie_bandwidth_gbs", &model::GpuProfile::pcie_bandwidth_gbs)
        .def_readonly("peak_gflops_dp", &model::GpuProfile::peak_gflops_dp)
        .def_readonly("peak_gflops_sp", &model::GpuProfile::peak_gflops_sp)
        .def_readonly("note", &model::GpuProfile::note)
        .def("__repr__", [](const model::GpuProfile& g) {
            return "<GpuProfile " + g.name + ": B_GPU " + std::to_string(g.memory_bandwidth_gbs) +
                   " GB/s, B_PCI " + std::to_string(g.pcie_bandwidth_gbs) + " GB/s>";
        });
    m.def(
        "profiles",
        []() {
            const auto p = model::profiles();
            return std::vector<model::GpuProfile>(p.begin(), p.end());
        },
        "The built-in GPU profiles (C2050, C2070, C2050-ECC, C2070-ECC, H100, H200, A100).");
    m.def(
        "find_profile", [](const std::string& name) { return model::find_profile(name); },
        py::arg("name"), "A built-in profile by name, ignoring case ('h100').");
    m.def("custom_profile", &model::custom, py::arg("name"), py::arg("memory_bandwidth_gbs"),
          py::arg("pcie_bandwidth_gbs"), py::arg("peak_gflops_dp") = 0.0,
          py::arg("peak_gflops_sp") = 0.0,
          "A profile of your own (e.g. bandwidths measured on the machine at hand).");

    // ---- Kreutzer's bandwidth model --------------------------------------------------------
    m.def(
        "min_alpha", [](double n_nzr) { return model::min_alpha(n_nzr); }, py::arg("n_nzr"),
        "1/N_nzr capped at 1: the smallest alpha (each x element loaded once).");
    m.def(
        "code_balance",
        [](double n_nzr, double alpha, const std::string& p) {
            return model::code_balance(n_nzr, alpha, precision_arg(p));
        },
        py::arg("n_nzr"), py::arg("alpha") = 1.0, py::arg("precision") = "double",
        "Bytes per flop (Kreutzer eq. 1): DP (8 + 4 + 8 alpha + 16/N_nzr) / 2, SP (4 + 4 + 4 "
        "alpha + 8/N_nzr) / 2.");
    m.def(
        "device_bytes",
        [](double rows, double n_nzr, double alpha, const std::string& p) {
            return model::device_bytes(rows, n_nzr, alpha, precision_arg(p));
        },
        py::arg("rows"), py::arg("n_nzr"), py::arg("alpha") = 1.0, py::arg("precision") = "double",
        "Device-memory bytes of one SpMV: N [N_nzr (s_v + s_i + s_v alpha) + 2 s_v].");
    m.def(
        "t_mvm_seconds",
        [](double rows, double n_nzr, double alpha, double bw, const std::string& p) {
            return model::t_mvm_seconds(rows, n_nzr, alpha, bw, precision_arg(p));
        },
        py::arg("rows"), py::arg("n_nzr"), py::arg("alpha"), py::arg("memory_bandwidth_gbs"),
        py::arg("precision") = "double", "T_MVM = device bytes / B_GPU (Kreutzer eq. 2).");
    m.def(
        "t_pci_seconds",
        [](double rows, double cols, double bw, const std::string& p) {
            return model::t_pci_seconds(rows, cols, bw, precision_arg(p));
        },
        py::arg("rows"), py::arg("cols"), py::arg("pcie_bandwidth_gbs"),
        py::arg("precision") = "double", "T_PCI: x to the device and y back.");

    py::class_<model::Thresholds>(m, "Thresholds", R"doc(Kreutzer eq. 3 and 4 for one bandwidth
ratio r = B_GPU/B_PCI and one alpha case: eq3_n_nzr (PCIe takes >= 50 % of the time for N_nzr
below it), eq4_n_nzr (T_MVM >= 10 T_PCI above it), paper_eq3, paper_eq4 (the paper's rounded
numbers, 0: none).)doc")
        .def_property_readonly(
            "precision",
            [](const model::Thresholds& t) { return std::string(model::to_string(t.precision)); })
        .def_readonly("bandwidth_ratio", &model::Thresholds::bandwidth_ratio)
        .def_property_readonly(
            "alpha_case",
            [](const model::Thresholds& t) { return std::string(model::to_string(t.alpha_case)); })
        .def_readonly("eq3_n_nzr", &model::Thresholds::eq3_n_nzr)
        .def_readonly("eq4_n_nzr", &model::Thresholds::eq4_n_nzr)
        .def_readonly("paper_eq3", &model::Thresholds::paper_eq3)
        .def_readonly("paper_eq4", &model::Thresholds::paper_eq4);
    m.def(
        "kreutzer_thresholds",
        [](double r, const std::string& c, const std::string& p) {
            return model::kreutzer_thresholds(r, alpha_case_arg(c), precision_arg(p));
        },
        py::arg("bandwidth_ratio"), py::arg("alpha_case") = "no_reuse",
        py::arg("precision") = "double",
        "Thresholds for r = B_GPU/B_PCI; alpha_case 'no_reuse' (alpha = 1), 'perfect_reuse' "
        "(1/N_nzr exact) or 'perfect_reuse_dropped' (the paper's numbers).");
    m.def(
        "kreutzer_worked_cases",
        [](const std::string& p) { return model::kreutzer_worked_cases(precision_arg(p)); },
        py::arg("precision") = "double",
        "The six worked cases of Kreutzer §II.B (r = 10 and 20, three alpha cases each).");

    py::class_<model::Prediction>(m, "Prediction", R"doc(What the bandwidth model predicts for
one matrix on one GPU: n_nzr, code_balance (bytes/flop), device_bytes, pcie_bytes, t_mvm_s,
t_pci_s, gflops (kernel only), gflops_with_pcie, pcie_share, peak_gflops, and the N_nzr
thresholds n_nzr_pcie_over_half (eq. 3), n_nzr_pcie_under_tenth, n_nzr_paper_eq4.)doc")
        .def_readonly("profile", &model::Prediction::profile)
        .def_property_readonly(
            "precision",
            [](const model::Prediction& p) { return std::string(model::to_string(p.precision)); })
        .def_readonly("alpha", &model::Prediction::alpha)
        .def_readonly("rows", &model::Prediction::rows)
        .def_readonly("cols", &model::Prediction::cols)
        .def_readonly("nnz", &model::Prediction::nnz)
        .def_readonly("n_nzr", &model::Prediction::n_nzr)
        .def_readonly("code_balance", &model::Prediction::code_balance)
        .def_readonly("device_bytes", &model::Prediction::device_bytes)
        .def_readonly("pcie_bytes", &model::Prediction::pcie_bytes)
        .def_readonly("t_mvm_s", &model::Prediction::t_mvm_s)
        .def_readonly("t_pci_s", &model::Prediction::t_pci_s)
        .def_readonly("gflops", &model::Prediction::gflops)
        .def_readonly("gflops_with_pcie", &model::Prediction::gflops_with_pcie)
        .def_readonly("pcie_share", &model::Prediction::pcie_share)
        .def_readonly("peak_gflops", &model::Prediction::peak_gflops)
        .def_readonly("n_nzr_pcie_over_half", &model::Prediction::n_nzr_pcie_over_half)
        .def_readonly("n_nzr_pcie_under_tenth", &model::Prediction::n_nzr_pcie_under_tenth)
        .def_readonly("n_nzr_paper_eq4", &model::Prediction::n_nzr_paper_eq4)
        .def("__repr__", [](const model::Prediction& p) {
            return "<Prediction " + p.profile + " " + std::string(model::to_string(p.precision)) +
                   ": " + std::to_string(p.gflops) + " GF/s kernel, " +
                   std::to_string(p.gflops_with_pcie) + " GF/s with PCIe>";
        });
    m.def(
        "_predict",
        [](const analysis::RowLengthStats& stats, const py::object& profile, const std::string& p,
           double alpha) {
            return model::predict(stats, profile_arg(profile), precision_arg(p), alpha);
        },
        py::arg("stats"), py::arg("profile") = "H100", py::arg("precision") = "double",
        py::arg("alpha") = 1.0);

    // ---- the per-format kernel model ---------------------------------------------------------
    m.def(
        "modelled_variants",
        []() {
            py::list out;
            for (const auto& v : model::modelled_variants()) {
                py::dict d;
                d["name"] = std::string(v.name);
                d["format"] = std::string(v.format);
                d["permuted"] = v.permuted;
                d["equivalent"] = std::string(v.equivalent);
                out.append(d);
            }
            return out;
        },
        "Every GPU kernel variant the per-format model knows: name, format (host registry "
        "name), permuted, equivalent (nearest cuSPARSE / Ginkgo / PETSc / MAGMA kernel).");

    py::class_<model::KernelShape>(m, "KernelShape", R"doc(What one GPU kernel variant does on one
matrix (precision-independent counts): variant, format, feasible/why_not, rows, cols, nnz,
launches, loaded_slots (value/index pairs read, padding the kernel loads included),
stored_slots, index_bytes (per slot), extra_index_slots, row_info_bytes, vector_passes,
temp_value_traffic, x_sectors_dp / x_sectors_sp (32-byte sectors of x requested),
matrix_sector_factor, x_staged, critical_trips (serial trips of the busiest warp), staged_trips
(the "_xs" kernels' rounds of row reads when x is staged in shared memory; 0 for the others),
plain_variant (the variant they run when x does not fit), warp_trips
(N_iter: the warps' load trips; a shuffle sum is in critical_trips only), warp_sectors_dp / warp_sectors_sp (the heaviest warp's sectors times the launch's
share of a full GPU's resident warps; 0 where not counted), useful_fraction.)doc")
        .def_readonly("variant", &model::KernelShape::variant)
        .def_readonly("format", &model::KernelShape::format)
        .def_property_readonly(
            "params", [](const model::KernelShape& s) { return params_dict(s.params, s.format); })
        .def_readonly("feasible", &model::KernelShape::feasible)
        .def_readonly("why_not", &model::KernelShape::why_not)
        .def_readonly("permuted", &model::KernelShape::permuted)
        .def_readonly("rows", &model::KernelShape::rows)
        .def_readonly("cols", &model::KernelShape::cols)
        .def_readonly("nnz", &model::KernelShape::nnz)
        .def_readonly("launches", &model::KernelShape::launches)
        .def_readonly("loaded_slots", &model::KernelShape::loaded_slots)
        .def_readonly("stored_slots", &model::KernelShape::stored_slots)
        .def_readonly("index_bytes", &model::KernelShape::index_bytes)
        .def_readonly("extra_index_slots", &model::KernelShape::extra_index_slots)
        .def_readonly("row_info_bytes", &model::KernelShape::row_info_bytes)
        .def_readonly("vector_passes", &model::KernelShape::vector_passes)
        .def_readonly("temp_value_traffic", &model::KernelShape::temp_value_traffic)
        .def_readonly("x_sectors_dp", &model::KernelShape::x_sectors_dp)
        .def_readonly("x_sectors_sp", &model::KernelShape::x_sectors_sp)
        .def_readonly("matrix_sector_factor", &model::KernelShape::matrix_sector_factor)
        .def_readonly("x_staged", &model::KernelShape::x_staged)
        .def_readonly("critical_trips", &model::KernelShape::critical_trips)
        .def_readonly("staged_trips", &model::KernelShape::staged_trips)
        .def_readonly("plain_variant", &model::KernelShape::plain_variant)
        .def_readonly("warp_trips", &model::KernelShape::warp_trips)
        .def_readonly("warp_sectors_dp", &model::KernelShape::warp_sectors_dp)
        .def_readonly("warp_sectors_sp", &model::KernelShape::warp_sectors_sp)
        .def_readonly("useful_fraction", &model::KernelShape::useful_fraction)
        .def("__repr__", [](const model::KernelShape& s) {
            return "<KernelShape " + s.variant + ": " +
                   (s.feasible ? "loaded " + std::to_string(s.loaded_slots) + " slots, " +
                                     std::to_string(s.warp_trips) + " warp trips"
                               : "infeasible: " + s.why_not) +
                   ">";
        });
    m.def(
        "_kernel_shapes",
        [](const Matrix& a, const py::object& variants, const py::kwargs& kwargs) {
            const auto p = params_from(kwargs, "");
            std::vector<std::string> names;
            if (!variants.is_none()) {
                names = variants.cast<std::vector<std::string>>();
            }
            for (const auto& n : names) {
                if (model::find_modelled_variant(n) == nullptr) {
                    std::string known;
                    for (const auto& v : model::modelled_variants()) {
                        known += (known.empty() ? "" : " ") + std::string(v.name);
                    }
                    SPMV_THROW(InvalidArgument,
                               "unknown modelled variant '" + n + "'; known: " + known);
                }
            }
            const std::vector<std::string_view> views(names.begin(), names.end());
            py::gil_scoped_release release;
            return model::kernel_shapes(a.csr, p, views);
        },
        py::arg("matrix"), py::arg("variants") = py::none());

    py::class_<model::KernelConstants>(m, "KernelConstants",
                                       "Fitted constants of one variant: floor_us (F_v), "
                                       "trip_ns (c_v), l2_efficiency (e_v in (0, 1]: the "
                                       "share of B_L2 the kernel keeps busy).")
        .def_readonly("variant", &model::KernelConstants::variant)
        .def_readonly("floor_us", &model::KernelConstants::floor_us)
        .def_readonly("trip_ns", &model::KernelConstants::trip_ns)
        .def_readonly("l2_efficiency", &model::KernelConstants::l2_efficiency);
    py::class_<model::FormatModelConstants>(m, "FormatModelConstants", R"doc(The per-format
model's constants of one GPU: bandwidth_gbs (B_GPU), l2_gbs (B_L2), issue_ps (tau), warp_gbs
(B_w, one warp's sector rate at full occupancy; 0: no heaviest-warp term), stage_ns (lambda,
one step of an _xs kernel's x staging; 0: no staging term), overlap_q (q: latency L and
memory M combined as (L^q + M^q)^(1/q); 0: their max), kernels
(KernelConstants per variant), source (where they come from).)doc")
        .def_readonly("profile", &model::FormatModelConstants::profile)
        .def_readonly("bandwidth_gbs", &model::FormatModelConstants::bandwidth_gbs)
        .def_readonly("l2_gbs", &model::FormatModelConstants::l2_gbs)
        .def_readonly("issue_ps", &model::FormatModelConstants::issue_ps)
        .def_readonly("warp_gbs", &model::FormatModelConstants::warp_gbs)
        .def_readonly("stage_ns", &model::FormatModelConstants::stage_ns)
        .def_readonly("overlap_q", &model::FormatModelConstants::overlap_q)
        .def_readonly("kernels", &model::FormatModelConstants::kernels)
        .def_readonly("source", &model::FormatModelConstants::source);
    m.def(
        "builtin_constants",
        [](const py::object& profile) { return model::builtin_constants(profile_arg(profile)); },
        py::arg("profile") = "H100",
        "The built-in constants for a profile (H100's fitted on the committed H100 records; "
        "others scaled by bandwidth, as `source` says).");

    m.def("overlap_time", &model::overlap_time, py::arg("latency"), py::arg("memory"),
          py::arg("q"),
          "The latency path and the memory path combined: max(L, M) for q = 0, else "
          "(L^q + M^q)^(1/q) (q = 1: L + M; FormatModelConstants.overlap_q).");

    py::class_<model::FormatPrediction>(m, "FormatPrediction", R"doc(The per-format model's time
for one variant: T = floor_s + overlap_time(latency_s, max(dram_s, l2_s, issue_s, warp_s), q),
q the constants' overlap_q (1 on the H100 and H200: latency plus memory); bound names the
largest term ('latency', 'DRAM bandwidth', 'L2 gather', 'warp issue' or 'heaviest warp');
gflops = 2 nnz / T.)doc")
        .def_readonly("variant", &model::FormatPrediction::variant)
        .def_readonly("feasible", &model::FormatPrediction::feasible)
        .def_readonly("why_not", &model::FormatPrediction::why_not)
        .def_readonly("time_s", &model::FormatPrediction::time_s)
        .def_readonly("gflops", &model::FormatPrediction::gflops)
        .def_readonly("floor_s", &model::FormatPrediction::floor_s)
        .def_readonly("latency_s", &model::FormatPrediction::latency_s)
        .def_readonly("dram_s", &model::FormatPrediction::dram_s)
        .def_readonly("l2_s", &model::FormatPrediction::l2_s)
        .def_readonly("issue_s", &model::FormatPrediction::issue_s)
        .def_readonly("warp_s", &model::FormatPrediction::warp_s)
        .def_readonly("dram_bytes", &model::FormatPrediction::dram_bytes)
        .def_readonly("l2_sectors", &model::FormatPrediction::l2_sectors)
        .def_readonly("bound", &model::FormatPrediction::bound)
        .def("__repr__", [](const model::FormatPrediction& p) {
            return "<FormatPrediction " + p.variant + ": " +
                   (p.feasible ? std::to_string(p.time_s * 1e6) + " us, " +
                                     std::to_string(p.gflops) + " GF/s, " + p.bound + " bound"
                               : "infeasible: " + p.why_not) +
                   ">";
        });
    m.def(
        "predict_kernel",
        [](const model::KernelShape& s, const py::object& profile, const std::string& p,
           const py::object& constants) {
            const auto c = constants.is_none() ? model::builtin_constants(profile_arg(profile))
                                               : constants.cast<model::FormatModelConstants>();
            return model::predict(s, c, precision_arg(p));
        },
        py::arg("shape"), py::arg("profile") = "H100", py::arg("precision") = "double",
        py::arg("constants") = py::none(),
        "The per-format model's prediction for one KernelShape on a GPU profile (its built-in "
        "constants unless `constants` is given).");
    m.def(
        "_predict_variants",
        [](const Matrix& a, const py::object& profile, const std::string& p,
           const py::object& variants, const py::object& constants, const py::kwargs& kwargs) {
            const auto params = params_from(kwargs, "");
            std::vector<std::string> names;
            if (!variants.is_none()) names = variants.cast<std::vector<std::string>>();
            for (const auto& n : names) {
                if (model::find_modelled_variant(n) == nullptr) {
                    std::string known;
                    for (const auto& v : model::modelled_variants()) {
                        known += (known.empty() ? "" : " ") + std::string(v.name);
                    }
                    SPMV_THROW(InvalidArgument,
                               "unknown modelled variant '" + n + "'; known: " + known);
                }
            }
            const auto gpu = profile_arg(profile);
            const auto prec = precision_arg(p);
            std::optional<model::FormatModelConstants> c;
            if (!constants.is_none()) c = constants.cast<model::FormatModelConstants>();
            const std::vector<std::string_view> views(names.begin(), names.end());
            std::vector<model::VariantPrediction> out;
            {
                py::gil_scoped_release release;
                // the one per-format model call of the project (format_model.hpp)
                out = model::predict_variants(a.csr, params, gpu, prec, views,
                                              c ? &*c : nullptr);
            }
            py::list l;
            for (auto& vp : out) l.append(py::make_tuple(vp.shape, vp.prediction));
            return l;
        },
        py::arg("matrix"), py::arg("profile") = "H100", py::arg("precision") = "double",
        py::arg("variants") = py::none(), py::arg("constants") = py::none());
    m.def(
        "dram_bytes",
        [](const model::KernelShape& s, const std::string& p) {
            return model::dram_bytes(s, precision_arg(p));
        },
        py::arg("shape"), py::arg("precision") = "double", "Bytes moved per SpMV by the shape.");
    m.def(
        "l2_sectors",
        [](const model::KernelShape& s, const std::string& p) {
            return model::l2_sectors(s, precision_arg(p));
        },
        py::arg("shape"), py::arg("precision") = "double", "L2 sectors requested per SpMV.");
}

}  // namespace spmv::python
