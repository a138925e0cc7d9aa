import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The controlling terminal in full-screen mode: raw input (no echo, no line buffering, no signals from
/// Ctrl-C), the alternate screen and a hidden cursor, all undone by `restore()` or by a fatal signal.
@MainActor
final class Terminal {
    /// Rows and columns.
    struct Size: Equatable {
        var rows: Int
        var columns: Int
    }

    private var isActive = false

    /// Switches the terminal to full-screen raw mode.
    ///
    /// - Throws: `CommandError.usage` when standard input or output is not a terminal.
    func start() throws(CommandError) {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw .usage("bookshelf needs a terminal; use the scripting commands (bookshelf books list …) otherwise")
        }
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { throw .usage("can't read the terminal's settings") }
        TerminalRestore.save(original)
        var raw = original
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        TerminalRestore.installSignalHandlers()
        isActive = true
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    }

    /// Leaves the alternate screen, shows the cursor and restores the settings `start()` found.
    func restore() {
        guard isActive else { return }
        isActive = false
        TerminalRestore.restoreNow()
    }

    /// The terminal's current size (24×80 when it can't be read).
    var size: Size {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_row > 0, window.ws_col > 0 else {
            return Size(rows: 24, columns: 80)
        }
        return Size(rows: Int(window.ws_row), columns: Int(window.ws_col))
    }

    /// Writes `text` to the terminal at once.
    func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                systemWrite(STDOUT_FILENO, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written <= 0 { return }
            offset += written
        }
    }

    /// The bytes typed so far, waiting at most `timeout` milliseconds for the first one.
    func read(timeout: Int32) -> [UInt8] {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, timeout) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { systemRead(STDIN_FILENO, $0.baseAddress, $0.count) }
        return count > 0 ? Array(buffer[0..<count]) : []
    }
}

// The C library's read(2) and write(2), named outside `Terminal` so its own `read` and `write` do not shadow them
// (and without naming the C library's module, which differs between platforms).
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

private func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, bytes, count)
}
