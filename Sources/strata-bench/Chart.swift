import Foundation

/// `--svg DIR`: one chart per workload family of a `--scale` run — time per row (or per query) against table
/// size, Strata and its floors, both axes logarithmic — written as plain SVG text.
enum Chart {
    /// One line of a chart: its label, colour and points (size, value).
    private struct Series {
        var label: String
        var colour: String
        var points: [(size: Double, value: Double)]
    }

    private static let width = 640.0
    private static let height = 400.0
    private static let left = 80.0, right = 170.0, top = 40.0, bottom = 50.0

    /// Writes `<family>.svg` into `directory` (made if missing) for every family in `results`.
    /// - Throws: the file system's error when the directory or a file can't be written.
    static func write(_ results: [WorkloadResult], to directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var families: [String] = []
        for result in results { if let family = result.family, !families.contains(family) { families.append(family) } }
        for family in families {
            let runs = results.filter { $0.family == family && $0.size != nil }.sorted { $0.size! < $1.size! }
            let svg = chart(family: family, runs: runs)
            try svg.write(
                toFile: (directory as NSString).appendingPathComponent("\(family).svg"), atomically: true,
                encoding: .utf8)
        }
    }

    private static func chart(family: String, runs: [WorkloadResult]) -> String {
        let perRow = runs.first?.perRow ?? true
        // Per row in microseconds; per query in milliseconds.
        func value(_ milliseconds: Double?, size: Int) -> Double? {
            guard let milliseconds, milliseconds > 0 else { return nil }
            return perRow ? milliseconds * 1000 / Double(size) : milliseconds
        }
        func series(_ label: String, _ colour: String, _ time: (WorkloadResult) -> Double?) -> Series {
            Series(
                label: label, colour: colour,
                points: runs.compactMap { run in
                    value(time(run), size: run.size!).map { (Double(run.size!), $0) }
                })
        }
        let lines = [
            series("Strata", "#c0392b", \.strataMedianMs),
            series("object floor", "#2471a3", \.objectMedianMs),
            series("struct floor (raw)", "#7f8c8d", \.rawMedianMs),
        ].filter { !$0.points.isEmpty }
        let sizes = lines.flatMap { $0.points.map(\.size) }
        let values = lines.flatMap { $0.points.map(\.value) }
        guard let minSize = sizes.min(), let maxSize = sizes.max(), let minValue = values.min(),
            let maxValue = values.max()
        else {
            return "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n"
        }
        let xRange = (floor(log10(minSize)), max(ceil(log10(maxSize)), floor(log10(minSize)) + 1))
        let yRange = (floor(log10(minValue)), max(ceil(log10(maxValue)), floor(log10(minValue)) + 1))
        func x(_ size: Double) -> Double {
            left + (log10(size) - xRange.0) / (xRange.1 - xRange.0) * (width - left - right)
        }
        func y(_ value: Double) -> Double {
            height - bottom - (log10(value) - yRange.0) / (yRange.1 - yRange.0) * (height - top - bottom)
        }
        let unit = perRow ? "µs per row" : "ms per query"
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(Int(left))" y="22" font-size="15" font-weight="bold">\(family): \(unit) against table size (log–log)</text>

            """
        for decade in stride(from: xRange.0, through: xRange.1, by: 1) {
            let position = x(pow(10, decade))
            svg += line(position, top, position, height - bottom, colour: "#e5e5e5")
            svg += text(position, height - bottom + 18, label(pow(10, decade)), anchor: "middle")
        }
        for decade in stride(from: yRange.0, through: yRange.1, by: 1) {
            let position = y(pow(10, decade))
            svg += line(left, position, width - right, position, colour: "#e5e5e5")
            svg += text(left - 8, position + 4, label(pow(10, decade)), anchor: "end")
        }
        svg += line(left, height - bottom, width - right, height - bottom, colour: "#333")
        svg += line(left, top, left, height - bottom, colour: "#333")
        svg += text((left + width - right) / 2, height - 12, "rows in the table", anchor: "middle")
        svg +=
            "<text x=\"18\" y=\"\(Int((top + height - bottom) / 2))\" text-anchor=\"middle\" "
            + "transform=\"rotate(-90 18 \(Int((top + height - bottom) / 2)))\">\(unit)</text>\n"
        for (number, series) in lines.enumerated() {
            let points = series.points.map { String(format: "%.1f,%.1f", x($0.size), y($0.value)) }.joined(
                separator: " ")
            svg += "<polyline fill=\"none\" stroke=\"\(series.colour)\" stroke-width=\"2\" points=\"\(points)\"/>\n"
            for point in series.points {
                svg += String(
                    format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%@\"/>\n", x(point.size), y(point.value),
                    series.colour)
            }
            let legendY = top + 10 + Double(number) * 20
            svg += line(width - right + 14, legendY, width - right + 38, legendY, colour: series.colour, width: 2)
            svg += text(width - right + 44, legendY + 4, series.label, anchor: "start")
        }
        return svg + "</svg>\n"
    }

    private static func line(
        _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, colour: String, width: Double = 1
    ) -> String {
        String(
            format: "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%@\" stroke-width=\"%.0f\"/>\n",
            x1, y1, x2, y2, colour, width)
    }

    private static func text(_ x: Double, _ y: Double, _ content: String, anchor: String) -> String {
        String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%@\">", x, y, anchor) + content + "</text>\n"
    }

    /// A power of ten as a short label: 10k, 1M, 0.01.
    private static func label(_ value: Double) -> String {
        switch value {
        case 1_000_000_000...: return "\(Int(value / 1_000_000_000))G"
        case 1_000_000...: return "\(Int(value / 1_000_000))M"
        case 1000...: return "\(Int(value / 1000))k"
        case 1...: return "\(Int(value))"
        default: return String(format: "%g", value)
        }
    }
}
