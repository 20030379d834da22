#pragma once
// Live timing on one dedicated worker thread: every GPU kernel variant (spmv::gpu::bench, the
// kernels' harness) or, without a CUDA device, the CPU reference SpMV of every format. Results
// stream back one row at a time (timingAvailable); cancel() stops after the running variant.
#include <spmv/model/gpu_profile.hpp>
#include <spmv/model/performance.hpp>
#include <spmv/registry.hpp>

#include "backgroundjob.hpp"
#include "matrixdocument.hpp"
#include "timing_table.hpp"

struct TimingRequest {
    MatrixDocumentPtr document;
    spmv::FormatParams params;
    spmv::model::Precision precision = spmv::model::Precision::double_precision;
    spmv::model::GpuProfile profile;  ///< for the prediction
    double alpha = 1.0;               ///< model's right-hand-side reuse factor
    bool useGpu = false;
    double minTimeMs = 60.0;  ///< per variant
};

class TimingWorker : public CancellableWorker {
    Q_OBJECT
public:
    explicit TimingWorker(QObject* parent = nullptr) : CancellableWorker(parent) {}

public slots:
    /// started, then per variant progressChanged and timingAvailable, then finished (cancel():
    /// the running variant finishes, then the run stops).
    void run(const TimingRequest& request, quint64 generation);

signals:
    void timingAvailable(const TimingRow& row, quint64 generation);
    void errorOccurred(const QString& message, quint64 generation);

private:
    template <typename V>
    void runGpu(const TimingRequest& request, quint64 generation);
    template <typename V>
    void runCpu(const TimingRequest& request, quint64 generation);
};

Q_DECLARE_METATYPE(TimingRequest)
Q_DECLARE_METATYPE(TimingRow)
