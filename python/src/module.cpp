/// spmvlab._spmvlab: the compiled half of the Python package (python/spmvlab/ is the other).
/// This file holds the module, the error translation, the memory budget and the parameter
/// parsing; the classes and functions are bound in the other python/src/*.cpp files.
#include <algorithm>
#include <cctype>
#include <new>
#include <pybind11/stl.h>
#include <string>

#include <spmv/error.hpp>
#include <spmv/formats/sell.hpp>
#include <spmv/gpu/error.hpp>
#include <spmv/memory.hpp>
#include <spmv/registry.hpp>

#include "common.hpp"

namespace spmv::python {
namespace {

// The Python exception classes (created once in bind_errors, alive as long as the process).
PyObject* base_error = nullptr;
PyObject* invalid_argument_error = nullptr;
PyObject* not_applicable_error = nullptr;
PyObject* dimension_error = nullptr;
PyObject* layout_error = nullptr;
PyObject* mm_error = nullptr;
PyObject* memory_error = nullptr;
PyObject* not_compiled_error = nullptr;
PyObject* gpu_error = nullptr;
PyObject* gpu_unavailable_error = nullptr;

/// cudaError_t values that mean "no usable device here" rather than "this call went wrong":
/// cudaErrorInitializationError (3), cudaErrorStubLibrary (34), cudaErrorInsufficientDriver
/// (35), cudaErrorCallRequiresNewerDriver (36), cudaErrorDevicesUnavailable (46),
/// cudaErrorNoDevice (100), cudaErrorSystemNotReady (802), cudaErrorSystemDriverMismatch (803),
/// cudaErrorCompatNotSupportedOnDevice (804). Numbers, not names: this file is plain C++.
bool means_no_device(int code)
{
    switch (code) {
    case 3:
    case 34:
    case 35:
    case 36:
    case 46:
    case 100:
    case 802:
    case 803:
    case 804:
        return true;
    default:
        return false;
    }
}

/// The message of GpuUnavailableError (spmvlab.gpu says the same before it calls CUDA).
std::string no_device_message(const std::string& cuda_message)
{
    return "no usable CUDA device: this spmvlab has GPU kernels compiled in, but the CUDA "
           "runtime cannot use a GPU on this machine (no NVIDIA driver, a driver older than the "
           "CUDA runtime, or no device). Check `nvidia-smi`; spmvlab.gpu.is_available() tells "
           "in advance, and `fmt @ x` is the host reference. CUDA said: " +
           cuda_message;
}

PyObject* new_error(py::module_& m, const char* name, py::tuple bases, const char* doc)
{
    const std::string qualified = std::string("spmvlab.") + name;
    PyObject* t = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
    if (t == nullptr) {
        throw py::error_already_set();
    }
    m.add_object(name, py::handle(t));  // add_object steals a reference: keep ours
    Py_INCREF(t);
    return t;
}

/// Raises `type(message)` with extra attributes set on the instance.
void raise(PyObject* type, const std::string& message, const py::dict& attrs = {})
{
    py::object instance = py::reinterpret_borrow<py::object>(type)(message);
    for (auto item : attrs) {
        instance.attr(item.first) = item.second;
    }
    PyErr_SetObject(type, instance.ptr());
}

}  // namespace

void bind_errors(py::module_& m)
{
    const py::handle exc(PyExc_Exception);
    const py::handle value(PyExc_ValueError);
    base_error = new_error(m, "SpmvLabError", py::make_tuple(exc),
                           "Base class of every error SpMV Lab raises (spmv::Error in C++).");
    const py::handle base(base_error);
    invalid_argument_error =
        new_error(m, "InvalidArgumentError", py::make_tuple(base, value),
                  "A bad argument: unknown format or generator, parameter out of range, bad shape "
                  "(spmv::InvalidArgument). A ValueError.");
    not_applicable_error =
        new_error(m, "NotApplicableError", py::make_tuple(py::handle(invalid_argument_error)),
                  "A format that cannot hold this matrix by design, e.g. more than 2^31-1 slots "
                  "(spmv::NotApplicable). A ValueError.");
    dimension_error = new_error(m, "DimensionMismatchError", py::make_tuple(base, value),
                                "Vectors of the wrong length (spmv::DimensionMismatch).");
    layout_error = new_error(m, "InvalidLayoutError", py::make_tuple(base, value),
                             "A layout whose arrays break its invariants (spmv::InvalidLayout).");
    mm_error = new_error(m, "MatrixMarketError", py::make_tuple(base, value),
                         "Malformed Matrix Market input (spmv::MatrixMarketError). Attribute "
                         "`line`: the 1-based line of the file (0: not tied to one line).");
    memory_error = new_error(
        m, "MemoryLimitError", py::make_tuple(base, py::handle(PyExc_MemoryError)),
        "Something would need more memory than the budget allows, found BEFORE allocating it "
        "(spmv::MemoryLimitExceeded). Attributes `needed` and `limit` (bytes). A MemoryError.");
    not_compiled_error = new_error(
        m, "NotCompiledError", py::make_tuple(base, py::handle(PyExc_NotImplementedError)),
        "A capability this build lacks, e.g. GPU kernels without CUDA (spmv::NotCompiled). "
        "A NotImplementedError.");
    gpu_error = new_error(m, "GpuError", py::make_tuple(base, py::handle(PyExc_RuntimeError)),
                          "A CUDA or cuSPARSE call failed, or the device is out of memory.");
    gpu_unavailable_error = new_error(
        m, "GpuUnavailableError", py::make_tuple(py::handle(gpu_error)),
        "GPU kernels are compiled in, but there is no usable device: no NVIDIA driver, one too "
        "old for the CUDA runtime, or no GPU (spmvlab.gpu.is_available() is False). A "
        "GpuError; attribute `cuda_error`: the cudaError_t value, 0 when CUDA was not asked.");

    // Most derived first. Messages drop the C++ source location (spmv::user_message; the
    // environment variable SPMVLAB_DEBUG=1 keeps it).
    py::register_exception_translator([](std::exception_ptr p) {
        if (!p) {
            return;
        }
        try {
            std::rethrow_exception(p);
        } catch (const MatrixMarketError& e) {
            py::dict attrs;
            attrs["line"] = e.input_line();
            raise(mm_error, user_message(e.what()), attrs);
        } catch (const MemoryLimitExceeded& e) {
            py::dict attrs;
            attrs["needed"] = e.needed();
            attrs["limit"] = e.limit();
            raise(memory_error, user_message(e.what()), attrs);
        } catch (const NotApplicable& e) {
            raise(not_applicable_error, user_message(e.what()));
        } catch (const InvalidArgument& e) {
            raise(invalid_argument_error, user_message(e.what()));
        } catch (const DimensionMismatch& e) {
            raise(dimension_error, user_message(e.what()));
        } catch (const InvalidLayout& e) {
            raise(layout_error, user_message(e.what()));
        } catch (const NotCompiled& e) {
            raise(not_compiled_error, user_message(e.what()));
        } catch (const gpu::CudaError& e) {
            if (means_no_device(e.code())) {
                py::dict attrs;
                attrs["cuda_error"] = e.code();
                raise(gpu_unavailable_error, no_device_message(user_message(e.what())), attrs);
            } else {
                raise(gpu_error, user_message(e.what()));
            }
        } catch (const gpu::CusparseError& e) {
            raise(gpu_error, user_message(e.what()));
        } catch (const gpu::OutOfDeviceMemory& e) {
            raise(gpu_error, user_message(e.what()));
        } catch (const Error& e) {
            raise(base_error, user_message(e.what()));
        }
        // anything else (std::bad_alloc -> MemoryError, ...) goes to pybind11's translators
    });
}

// ---- memory budget -----------------------------------------------------------------------

MemoryBudget default_budget()
{
    auto d = default_memory_budget(0.5);
    d.unconfirmed_dimension = std::int64_t{1} << 24;
    d.hint = "call spmvlab.set_memory_limit(SIZE) to change it";
    return d;
}

MemoryBudget& budget()
{
    static MemoryBudget b = default_budget();
    return b;
}

void require(std::uint64_t need, const std::string& what)
{
    require_memory(budget(), need, what);
}

// ---- parameters --------------------------------------------------------------------------

namespace {

std::string underscored(std::string_view s)
{
    std::string r(s);
    std::replace(r.begin(), r.end(), '-', '_');
    return r;
}

/// FormatParams field names, accepted next to the CLI names.
std::string_view field_name(Param id)
{
    switch (id) {
        case Param::warp_size:
            return "warp_size";
        case Param::block_rows:
            return "block_rows";
        case Param::slice_height:
            return "slice_height";
        case Param::sort_window:
            return "sort_window";
        case Param::pitch_bytes:
            return "pitch_bytes";
        case Param::hyb_width:
            return "hyb_width";
        case Param::diag_pad:
            return "diag_pad";
        case Param::pjds_pad:
            return "pjds_pad";
    }
    return "";
}

std::string known_names()
{
    std::string s;
    for (const auto& info : parameters()) {
        s += (s.empty() ? "" : ", ") + underscored(info.name);
        if (field_name(info.id) != underscored(info.name)) {
            s += " (" + std::string(field_name(info.id)) + ")";
        }
    }
    return s;
}

}  // namespace

FormatParams params_from(const py::dict& kwargs, const std::string& format)
{
    FormatParams p;
    const FormatInfo* info = format.empty() ? nullptr : &find_format(format);
    for (auto item : kwargs) {
        const auto key = underscored(py::str(item.first).cast<std::string>());
        const ParamInfo* param = nullptr;
        for (const auto& pi : parameters()) {
            if (key == underscored(pi.name) || key == field_name(pi.id)) {
                param = &pi;
            }
        }
        if (param == nullptr) {
            SPMV_THROW(InvalidArgument, "unknown parameter '" + key + "'; known: " + known_names());
        }
        if (info != nullptr &&
            std::find(info->params.begin(), info->params.end(), param->id) == info->params.end()) {
            std::string reads;
            for (auto id : info->params) {
                for (const auto& pi : parameters()) {
                    if (pi.id == id) {
                        reads += (reads.empty() ? "" : ", ") + underscored(pi.name);
                    }
                }
            }
            SPMV_THROW(InvalidArgument, "format '" + format + "' does not read parameter '" + key +
                                            "' (it reads: " + (reads.empty() ? "none" : reads) +
                                            ")");
        }
        const py::handle v = item.second;
        int value = 0;
        if (py::isinstance<py::str>(v)) {
            const auto s = v.cast<std::string>();
            if (param->id == Param::sort_window && s == "auto") {
                value = 0;
            } else if (param->id == Param::hyb_width && s == "auto") {
                value = -1;
            } else {
                SPMV_THROW(InvalidArgument,
                           "parameter " + key + " = '" + s + "' is not a whole number" +
                               (param->id == Param::sort_window || param->id == Param::hyb_width
                                    ? " or 'auto'"
                                    : ""));
            }
        } else if (py::isinstance<py::bool_>(v)) {
            value = v.cast<bool>() ? 1 : 0;
        } else {
            const auto as_int = py::int_(py::reinterpret_borrow<py::object>(v));
            const auto wide = as_int.cast<long long>();
            if (py::float_(py::reinterpret_borrow<py::object>(v)).cast<double>() !=
                static_cast<double>(wide)) {
                SPMV_THROW(InvalidArgument, "parameter " + key + " must be a whole number");
            }
            if (wide < param->min_value || wide > param->max_value) {
                SPMV_THROW(InvalidArgument, "parameter " + key + " = " + std::to_string(wide) +
                                                " is outside [" + std::to_string(param->min_value) +
                                                ", " + std::to_string(param->max_value) + "]");
            }
            value = static_cast<int>(wide);
        }
        set(p, param->id, value);  // checks the range
    }
    return p;
}

void resolve_auto(FormatParams& p, const CsrD& a)
{
    p = resolve_params("sell", a, p);  // the registry's one resolution of "auto" values
}

py::dict params_dict(const FormatParams& p, const std::string& format)
{
    py::dict d;
    for (auto id : find_format(format).params) {
        for (const auto& pi : parameters()) {
            if (pi.id == id) {
                d[py::str(underscored(pi.name))] = get(p, id);
            }
        }
    }
    return d;
}

bool single_precision(const py::object& dtype)
{
    if (dtype.is_none()) {
        return false;
    }
    const auto name = py::str(py::dtype::from_args(dtype).attr("name")).cast<std::string>();
    if (name == "float64") {
        return false;
    }
    if (name == "float32") {
        return true;
    }
    SPMV_THROW(InvalidArgument, "dtype must be float64 (double) or float32 (single), not " + name);
}

}  // namespace spmv::python

PYBIND11_MODULE(_spmvlab, m)
{
    namespace sp = spmv::python;
    namespace py = pybind11;
    m.doc() =
        "SpMV Lab: sparse matrix storage formats for GPUs (compiled part; use the "
        "`spmvlab` package).";
    sp::bind_errors(m);

    m.def(
        "set_memory_limit",
        [](const py::object& size) -> py::object {
            auto& b = sp::budget();
            const py::object previous =
                b.bytes == 0 ? py::object(py::none()) : py::object(py::int_(b.bytes));
            if (size.is_none()) {
                b = spmv::MemoryBudget{};
                b.origin = "set_memory_limit(None)";
                return previous;
            }
            std::uint64_t bytes = 0;
            std::string text;
            if (py::isinstance<py::str>(size) && size.cast<std::string>() == "default") {
                b = sp::default_budget();
                return previous;
            }
            if (py::isinstance<py::str>(size)) {
                text = size.cast<std::string>();
                const auto parsed = spmv::parse_byte_size(text);
                if (!parsed) {
                    SPMV_THROW(spmv::InvalidArgument,
                               "'" + text + "' is not a size such as 8G, 512M or 65536");
                }
                bytes = *parsed;
                text = "'" + text + "'";
            } else {
                const auto v = size.cast<long long>();
                if (v <= 0) {
                    SPMV_THROW(spmv::InvalidArgument,
                               "the memory limit must be positive (None: no limit)");
                }
                bytes = static_cast<std::uint64_t>(v);
                text = std::to_string(v);
            }
            b = spmv::MemoryBudget{};
            b.bytes = bytes;
            b.origin = "set_memory_limit(" + text + ")";
            return previous;
        },
        py::arg("size"),
        R"doc(Sets the memory budget: the most bytes one matrix, format or vector may take.

Every step whose size an input decides (reading a file, generating, converting triplets,
building a format) ESTIMATES its size first and raises MemoryLimitError (a MemoryError) naming
what, how many bytes and the limit, instead of being killed by the operating system.

size: bytes (int), a string such as "4G", "512M", "1.5GiB", "default" (back to the default
below), or None for no limit.
Returns the previous limit in bytes (None: there was none).
The default is half of the memory available at the first use; with the default, a matrix may
also declare at most 2^24 rows or columns beyond 16 per entry (as the command-line tool).)doc");
    m.def(
        "memory_limit",
        []() -> py::object {
            const auto& b = sp::budget();
            return b.bytes == 0 ? py::object(py::none()) : py::object(py::int_(b.bytes));
        },
        "The memory budget in bytes (None: no limit). See set_memory_limit.");
    m.def(
        "describe_memory_limit", []() { return sp::budget().describe(); },
        "The memory budget as a sentence, e.g. '11.6 GiB (half of the 23.1 GiB available; ...)'.");
    m.def(
        "format_bytes", [](double bytes) { return spmv::format_bytes(bytes); }, py::arg("bytes"),
        "'1.5 GiB', '320 MiB', '144 B': a byte count in binary units, three significant digits.");

    sp::bind_matrix(m);
    sp::bind_formats(m);
    sp::bind_analysis(m);
    sp::bind_model(m);
    sp::bind_gpu(m);
}
