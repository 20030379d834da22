/// spmv::gpu from Python: the GPU kernels behind the plain C++ headers of kernels/include. In a
/// build without CUDA the same calls raise NotCompiledError (spmv::NotCompiled from the stubs),
/// so a notebook can ask spmvlab.gpu.is_available() and fall back to the host reference.
#include <cstdint>
#include <memory>
#include <pybind11/stl.h>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include <spmv/error.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/device_matrix.hpp>
#include <spmv/gpu/device_vector.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/gpu/verify.hpp>

#include "common.hpp"
#include "spmv_call.hpp"

namespace spmv::python {
namespace {

/// A matrix assembled on the device (its arrays uploaded once). Python class gpu.DeviceMatrix.
struct GpuMatrix {
    std::variant<gpu::DeviceMatrix<double>, gpu::DeviceMatrix<float>> m;
};

GpuMatrix assemble_format(const Format& f, const std::string& variant)
{
    GpuMatrix g;
    std::visit(
        [&](const auto& any) {
            py::gil_scoped_release release;
            g.m = gpu::assemble(any, variant);
        },
        f.m);
    return g;
}

template <typename V>
py::array_t<V> device_spmv(const gpu::DeviceMatrix<V>& dm, const py::object& x, double alpha,
                           double beta, const py::object& y, RowOrder order)
{
    return run_spmv<V>(dm.num_rows(), dm.num_cols(), x, alpha, beta, y,
                       [&](V al, std::span<const V> xs, V be, std::span<V> ys) {
                           gpu::DeviceVector<V> xv(xs);
                           gpu::DeviceVector<V> yv(std::span<const V>(ys.data(), ys.size()));
                           dm.spmv(al, xv, be, yv, order);
                           yv.copy_to(ys);
                       });
}

}  // namespace

void bind_gpu(py::module_& top)
{
    auto m = top.def_submodule("gpu", "GPU kernels (use spmvlab.gpu).");

    m.def("is_compiled", &gpu::is_compiled, "True when this build has CUDA kernels.");
    m.def("device_count", &gpu::device_count, "Usable CUDA devices (0 without driver/device).");
    m.def("is_available", &gpu::is_available, "Kernels compiled and a device present.");

    py::class_<gpu::DeviceInfo>(m, "DeviceInfo", "Properties of the current CUDA device.")
        .def_readonly("name", &gpu::DeviceInfo::name)
        .def_readonly("compute_capability_major", &gpu::DeviceInfo::compute_capability_major)
        .def_readonly("compute_capability_minor", &gpu::DeviceInfo::compute_capability_minor)
        .def_readonly("global_memory_bytes", &gpu::DeviceInfo::global_memory_bytes)
        .def_readonly("l2_cache_bytes", &gpu::DeviceInfo::l2_cache_bytes)
        .def_readonly("multiprocessors", &gpu::DeviceInfo::multiprocessors)
        .def_readonly("ecc_enabled", &gpu::DeviceInfo::ecc_enabled)
        .def_readonly("peak_bandwidth_gbs", &gpu::DeviceInfo::peak_bandwidth_gbs)
        .def("__repr__", [](const gpu::DeviceInfo& d) { return "<DeviceInfo " + d.name + ">"; });
    m.def("device_info", &gpu::device_info,
          "DeviceInfo of the current device; NotCompiledError without CUDA, GpuError without a "
          "device.");

    m.def(
        "variants",
        []() {
            py::list out;
            for (const auto& v : gpu::kernel_variants()) {
                py::dict d;
                d["name"] = std::string(v.name);
                d["format"] = std::string(v.format);
                d["description"] = std::string(v.description);
                d["baseline"] = v.baseline;
                out.append(d);
            }
            return out;
        },
        "Every GPU SpMV variant of this build: name, format (the host layout it runs), "
        "description (the thread mapping), baseline (a cuSPARSE reference). The list is the "
        "same without CUDA; running one then raises NotCompiledError.");

    py::class_<GpuMatrix>(m, "DeviceMatrix", R"doc(A storage format assembled on the GPU (its
arrays uploaded once). spmv(x) runs the kernel; x and y travel to and from the device on every
call.)doc")
        .def_property_readonly("format",
                               [](const GpuMatrix& g) {
                                   return std::visit([](const auto& d) { return d.format(); }, g.m);
                               })
        .def_property_readonly("variant",
                               [](const GpuMatrix& g) {
                                   return std::visit([](const auto& d) { return d.variant(); },
                                                     g.m);
                               })
        .def_property_readonly(
            "shape",
            [](const GpuMatrix& g) {
                return std::visit(
                    [](const auto& d) { return py::make_tuple(d.num_rows(), d.num_cols()); }, g.m);
            })
        .def_property_readonly("nnz",
                               [](const GpuMatrix& g) {
                                   return std::visit([](const auto& d) { return d.nnz(); }, g.m);
                               })
        .def_property_readonly("permuted",
                               [](const GpuMatrix& g) {
                                   return std::visit([](const auto& d) { return d.permuted(); },
                                                     g.m);
                               })
        .def_property_readonly(
            "device_bytes",
            [](const GpuMatrix& g) {
                return std::visit([](const auto& d) { return d.device_bytes(); }, g.m);
            },
            "Bytes the matrix holds on the device (padding and scratch included).")
        .def(
            "spmv",
            [](const GpuMatrix& g, const py::object& x, double alpha, double beta,
               const py::object& y, const std::string& order) {
                const auto o = row_order(order);
                return std::visit(
                    [&](const auto& d) -> py::object {
                        return device_spmv(d, x, alpha, beta, y, o);
                    },
                    g.m);
            },
            py::arg("x"), py::arg("alpha") = 1.0, py::arg("beta") = 0.0, py::arg("y") = py::none(),
            py::arg("order") = "original",
            "alpha * A @ x + beta * y computed by the GPU kernel (a new array; y is not "
            "modified).");

    m.def("assemble", &assemble_format, py::arg("format"), py::arg("variant") = "",
          R"doc(Uploads a built Format to the GPU with one kernel variant (variants(); '' = the
format's default kernel). Raises NotCompiledError in a build without CUDA, InvalidArgumentError
when the variant does not run this format.)doc");

    py::class_<gpu::VerifyResult>(m, "VerifyResult", R"doc(A GPU kernel checked against the
host reference: error (componentwise, scaled by what the row could lose to rounding),
error_general, error_beta_zero, error_permuted, normwise_error, tolerance, max_row_length,
passed, message.)doc")
        .def_readonly("error", &gpu::VerifyResult::error)
        .def_readonly("error_general", &gpu::VerifyResult::error_general)
        .def_readonly("error_beta_zero", &gpu::VerifyResult::error_beta_zero)
        .def_readonly("error_permuted", &gpu::VerifyResult::error_permuted)
        .def_readonly("normwise_error", &gpu::VerifyResult::normwise_error)
        .def_readonly("tolerance", &gpu::VerifyResult::tolerance)
        .def_readonly("max_row_length", &gpu::VerifyResult::max_row_length)
        .def_readonly("passed", &gpu::VerifyResult::passed)
        .def_readonly("message", &gpu::VerifyResult::message)
        .def("__repr__",
             [](const gpu::VerifyResult& r) { return "<VerifyResult " + r.message + ">"; });

    m.def(
        "_verify",
        [](const std::string& variant, const Matrix& a, const py::object& dtype,
           const py::kwargs& kwargs) {
            const auto& v = gpu::find_variant(variant);
            const auto p = params_from(kwargs, "");
            if (single_precision(dtype)) {
                const auto af = convert_values<float>(a.csr);
                py::gil_scoped_release release;
                return gpu::verify<float>(v, af, p);
            }
            py::gil_scoped_release release;
            return gpu::verify<double>(v, a.csr, p);
        },
        py::arg("variant"), py::arg("matrix"), py::arg("dtype") = py::none());
}

}  // namespace spmv::python
