#include "timingworker.hpp"

#include "memoryguard.hpp"

#include <chrono>
#include <new>
#include <random>

#include <spmv/analysis/estimate.hpp>
#include <spmv/analysis/summary.hpp>
#include <spmv/any_matrix.hpp>
#include <spmv/error.hpp>
#include <spmv/gpu/bench.hpp>
#include <spmv/gpu/device.hpp>
#include <spmv/gpu/variants.hpp>
#include <spmv/host_device.hpp>

namespace {

/// The document's matrix in precision V: the document's own for double (no copy: 120 MB and
/// ~0.15 s for 10M nonzeros), a converted copy held in `holder` for float.
template <typename V>
const spmv::Csr<V, std::int32_t>& converted(const spmv::Csr<double, std::int32_t>& a,
                                            spmv::Csr<V, std::int32_t>& holder)
{
    if constexpr (std::is_same_v<V, double>) {
        return a;
    } else {
        holder = spmv::convert_values<V>(a);
        return holder;
    }
}

}  // namespace

void TimingWorker::run(const TimingRequest& request, quint64 generation)
{
    resetCancel();
    if (!request.document) {
        emit finished(false, generation);
        return;
    }
    try {
        const bool dp = request.precision == spmv::model::Precision::double_precision;
        if (request.useGpu) {
            dp ? runGpu<double>(request, generation) : runGpu<float>(request, generation);
        } else {
            dp ? runCpu<double>(request, generation) : runCpu<float>(request, generation);
        }
    } catch (const std::exception& e) {
        emit errorOccurred(QString::fromStdString(spmv::user_message(e.what())), generation);
    }
    emit finished(isCancelled(), generation);
}

template <typename V>
void TimingWorker::runGpu(const TimingRequest& request, quint64 generation)
{
    const auto& doc = *request.document;
    const auto variants = spmv::gpu::kernel_variants();
    const int total = static_cast<int>(variants.size());
    emit started(total, generation);
    spmv::Csr<V, std::int32_t> holder;
    const auto& a = converted<V>(doc.csr, holder);
    const auto prediction =
        spmv::model::predict(doc.stats, request.profile, request.precision, request.alpha);
    // each variant's own prediction, for the layouts this run times (request.params)
    const auto formatModel =
        make_format_model(doc.csr, request.params, request.profile, request.precision);
    const std::string device = spmv::gpu::device_info().name;
    spmv::gpu::BenchOptions options;
    options.min_time_ms = request.minTimeMs;
    options.min_reps = 10;
    options.max_wall_ms = 3000;
    options.xgpu = false;
    int done = 0;
    for (const auto& v : variants) {
        if (isCancelled()) break;
        emit progressChanged(done, total,
                             QString::fromUtf8(v.name.data(), static_cast<int>(v.name.size())),
                             generation);
        TimingRow row;
        row.variant = std::string(v.name);
        row.format = std::string(v.format);
        row.precision = sizeof(V) == 8 ? "double" : "float";
        row.device = device;
        row.baseline = v.baseline;
        row.gpu = true;
        try {
            const auto m = spmv::gpu::prepare<V>(v, a, request.params);
            const auto r = spmv::gpu::bench(m, options);
            row.median_ms = r.kernel.median_ms;
            row.timing = r.kernel.method;
            row.gflops = r.gflops;
            row.effective_gbs = r.effective_gbs;
            row.fraction_of_copy = r.fraction_of_copy;
            attach_prediction(row, prediction);
        } catch (const std::bad_alloc&) {
            row.error = "out of host memory";
        } catch (const std::exception& e) {
            // e.g. OutOfDeviceMemory: "pjds needs 12.3 GiB on the device ..."
            row.error = spmv::user_message(e.what());
        }
        attach_format_model(row, formatModel);
        emit timingAvailable(row, generation);
        emit progressChanged(++done, total, QString(), generation);
    }
}

template <typename V>
void TimingWorker::runCpu(const TimingRequest& request, quint64 generation)
{
    using clock = std::chrono::steady_clock;
    const auto& doc = *request.document;
    const auto all = spmv::formats();
    const int total = static_cast<int>(all.size());
    emit started(total, generation);
    spmv::Csr<V, std::int32_t> holder;
    const auto& a = converted<V>(doc.csr, holder);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    std::vector<V> x(static_cast<std::size_t>(a.num_cols));
    std::vector<V> y(static_cast<std::size_t>(a.num_rows));
    for (auto& e : x) e = static_cast<V>(dist(rng));
    std::optional<spmv::model::Prediction> prediction;
    if (doc.stats.rows > 0 && doc.stats.nnz > 0) {
        prediction =
            spmv::model::predict(doc.stats, request.profile, request.precision, request.alpha);
    }
    // the GPU kernel of each format (the registry name is its default variant's), priced for
    // the chosen profile: shown next to the CPU time, not divided by it
    const auto formatModel =
        make_format_model(doc.csr, request.params, request.profile, request.precision);
    const std::uint64_t limit = formatMemoryLimit(csrBytes(doc.csr), formatMemoryLimit());
    int done = 0;
    for (const auto& info : all) {
        if (isCancelled()) break;
        const QString name =
            QString::fromUtf8(info.name.data(), static_cast<int>(info.name.size()));
        emit progressChanged(done, total, name, generation);
        TimingRow row;
        row.variant = std::string(info.name);
        row.format = std::string(info.name);
        row.precision = sizeof(V) == 8 ? "double" : "float";
        row.device = spmv::host_device_name();
        try {
            // a layout past the explorer's limit is refused with its size, never allocated
            // (ELLPACK of a 10M-nonzero power law: 13.6 GiB)
            if (spmv::analysis::has_footprint_estimate(info.name)) {
                const auto need =
                    spmv::analysis::estimate_footprint(doc.csr, info.name, request.params)
                        .total_bytes();  // double precision: float needs less
                if (need > limit) {
                    SPMV_THROW(spmv::InvalidArgument,
                               std::string(info.title) + " of this matrix would need " +
                                   spmv::analysis::format_bytes(static_cast<double>(need)) +
                                   " (limit " +
                                   spmv::analysis::format_bytes(static_cast<double>(limit)) +
                                   "): not built");
                }
            }
            const auto m = spmv::build<V>(info.name, a, request.params);
            std::vector<double> times;
            double spent = 0.0;
            while ((spent < request.minTimeMs || times.size() < 3) && times.size() < 200 &&
                   !isCancelled()) {
                const auto t0 = clock::now();
                spmv::spmv_reference(m, V{1}, std::span<const V>(x), V{0}, std::span<V>(y));
                const double ms =
                    std::chrono::duration<double, std::milli>(clock::now() - t0).count();
                times.push_back(ms);
                spent += ms;
            }
            row.median_ms = median_ms(times);
            row.gflops = gflops_of(doc.stats.nnz, row.median_ms);
            // the same bandwidth-limit bytes as the GPU rows (values, indices, row pointers, x
            // and y once) over the CPU's time: what one core streams
            if (row.median_ms > 0) {
                row.effective_gbs =
                    static_cast<double>(spmv::gpu::spmv_min_bytes(a.num_rows, a.num_cols,
                                                                  doc.stats.nnz, sizeof(V), false)) /
                    (row.median_ms * 1e6);
            }
            // the prediction is for a GPU: shown next to the CPU number, not divided by it
            if (prediction) row.predicted_gflops = prediction->gflops;
        } catch (const std::bad_alloc&) {
            row.error = "out of memory";
        } catch (const std::exception& e) {
            row.error = spmv::user_message(e.what());
        }
        attach_format_model(row, formatModel);
        emit timingAvailable(row, generation);
        emit progressChanged(++done, total, QString(), generation);
    }
}
