#include "formattext.hpp"

#include <algorithm>

#include <QObject>
#include <QStringList>

QString formatTitle(std::string_view name)
{
    const auto* info = spmv::find_format_or_null(name);
    const std::string_view t = info ? info->title : name;
    return QString::fromUtf8(t.data(), static_cast<qsizetype>(t.size()));
}

QString paramSymbol(spmv::Param p)
{
    switch (p) {
        case spmv::Param::warp_size:
            return QStringLiteral("W");
        case spmv::Param::block_rows:
            return QStringLiteral("b_r");
        case spmv::Param::slice_height:
            return QStringLiteral("C");
        case spmv::Param::sort_window:
            return QStringLiteral("\u03c3");
        case spmv::Param::pitch_bytes:
            return QStringLiteral("pitch");
        case spmv::Param::hyb_width:
            return QStringLiteral("K");
        case spmv::Param::diag_pad:
            return QStringLiteral("diag_pad");
        case spmv::Param::pjds_pad:
            return QStringLiteral("pjds_pad");
    }
    return {};
}

bool readsParam(std::string_view name, spmv::Param p)
{
    const auto* info = spmv::find_format_or_null(name);
    return info && std::find(info->params.begin(), info->params.end(), p) != info->params.end();
}

QString layoutTitle(std::string_view name, const spmv::FormatParams& params)
{
    const auto* info = spmv::find_format_or_null(name);
    if (!info) return formatTitle(name);
    QStringList parts = formatTitle(name).split(QLatin1Char('-'));
    for (auto& part : parts) {
        for (const auto p : info->params) {
            if (part == paramSymbol(p)) part = QString::number(spmv::get(params, p));
        }
    }
    return parts.join(QLatin1Char('-'));
}

bool sortsWithinSigma(std::string_view name, const spmv::FormatParams& params)
{
    return readsParam(name, spmv::Param::sort_window) && params.sort_window > 1;
}

QString sweepParamLabel(spmv::Param p)
{
    return QObject::tr("%1 of %2")
        .arg(paramSymbol(p), formatTitle(spmv::analysis::sweep_format(p)));
}

QString sweepTitle(const spmv::analysis::SweepResult& r)
{
    QString title = formatTitle(r.format);
    const auto* info = spmv::find_format_or_null(r.format);
    if (!info) return title;
    for (const auto p : info->params) {
        if (p == r.param || !spmv::analysis::is_sweepable(r.format, p)) continue;
        const int v = spmv::get(r.base, p);
        title +=
            v > 0 ? QObject::tr(", %1 = %2").arg(paramSymbol(p)).arg(v)
                  : QObject::tr(", %1 automatic per %2").arg(paramSymbol(p), paramSymbol(r.param));
    }
    return title;
}
