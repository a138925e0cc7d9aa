import Foundation

/// The full-screen app: reads keys, hands them to the view models and redraws the rows that changed.
@MainActor
final class App {
    let shelf: ShelfViewModel
    private let terminal = Terminal()
    private var decoder = KeyDecoder()
    private var frame = FrameDiff()

    /// The app over `shelf`.
    init(shelf: ShelfViewModel) {
        self.shelf = shelf
    }

    /// Runs until the user quits; the terminal is restored however the loop ends.
    ///
    /// - Throws: `CommandError.usage` when not attached to a terminal.
    func run() async throws {
        try terminal.start()
        defer { terminal.restore() }
        while !shelf.isFinished {
            if terminalResized.exchange(false, ordering: .relaxed) { frame.invalidate() }
            draw()
            let bytes = terminal.read(timeout: 0)
            for key in decoder.feed(bytes) { handle(key) }
            // Yield so the live lists' observers can refresh on the main actor; typed keys are handled without waiting.
            if bytes.isEmpty { try? await Task.sleep(for: .milliseconds(30)) }
        }
    }

    private func draw() {
        let size = terminal.size
        let lines = ShelfScreen(shelf: shelf, size: size).lines()
        let output = frame.update(to: lines, width: size.columns)
        if !output.isEmpty { terminal.write(output) }
    }
}
