#pragma once
// Live timing on one dedicated worker thread: every GPU kernel variant (spmv::gpu::bench, the
// kernels' harness) or, without a CUDA device, the CPU reference SpMV of every format. Results
// stream back one row at a time (timingAvailable); cancel() stops after the running variant.
#include <atomic>

#include <QObject>
#include <QString>

#include <spmv/model/gpu_profile.hpp>
#include <spmv/model/performance.hpp>
#include <spmv/registry.hpp>

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

class TimingWorker : public QObject {
    Q_OBJECT
public:
    explicit TimingWorker(QObject* parent = nullptr) : QObject(parent) {}

    /// Thread-safe: the running variant finishes, then the run stops.
    void cancel() { m_cancel.store(true); }

public slots:
    void run(const TimingRequest& request, quint64 generation);

signals:
    void started(int total, quint64 generation);
    void timingAvailable(const TimingRow& row, quint64 generation);
    void progressChanged(int done, int total, const QString& current, quint64 generation);
    void finished(bool cancelled, quint64 generation);
    void errorOccurred(const QString& message, quint64 generation);

private:
    template <typename V>
    void runGpu(const TimingRequest& request, quint64 generation);
    template <typename V>
    void runCpu(const TimingRequest& request, quint64 generation);

    std::atomic<bool> m_cancel{false};
};

Q_DECLARE_METATYPE(TimingRequest)
Q_DECLARE_METATYPE(TimingRow)
