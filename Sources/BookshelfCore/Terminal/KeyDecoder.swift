import Foundation

/// Turns raw input bytes into keys: UTF-8 text, control characters and the CSI / SS3 escape sequences terminals
/// send for arrows, Home/End, Page Up/Down, Delete and Shift-Tab.
///
/// Bytes of an incomplete sequence are kept until the next `feed`. A lone Esc at the end of the input is the Esc
/// key (terminals send a sequence's bytes together).
struct KeyDecoder {
    private var pending: [UInt8] = []

    /// Decodes `bytes` (after any kept from before) into keys.
    mutating func feed(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            guard let (key, length) = decode(at: index) else { break }
            if let key { keys.append(key) }
            index += length
        }
        pending.removeFirst(index)
        return keys
    }

    /// The key at `index` and how many bytes it took; `nil` when the bytes there are incomplete. A `nil` key
    /// skips bytes that mean nothing (an unknown sequence, invalid UTF-8).
    private func decode(at index: Int) -> (Key?, Int)? {
        let byte = pending[index]
        switch byte {
        case 0x1B: return decodeEscape(at: index)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x09: return (.tab, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x01...0x1A: return (.control(Character(Unicode.Scalar(byte + 0x60))), 1)
        case 0x00..<0x20: return (nil, 1)
        default: return decodeUTF8(at: index)
        }
    }

    private func decodeEscape(at index: Int) -> (Key?, Int)? {
        guard index + 1 < pending.count else { return (.escape, 1) }
        let introducer = pending[index + 1]
        if introducer == UInt8(ascii: "O") {
            guard index + 2 < pending.count else { return nil }
            return (finalKey(pending[index + 2], parameter: ""), 3)
        }
        guard introducer == UInt8(ascii: "[") else { return (.escape, 1) }
        var end = index + 2
        while end < pending.count, !(0x40...0x7E).contains(pending[end]) { end += 1 }
        guard end < pending.count else { return nil }
        let parameter = String(decoding: pending[(index + 2)..<end], as: UTF8.self)
        return (finalKey(pending[end], parameter: parameter), end - index + 1)
    }

    private func finalKey(_ final: UInt8, parameter: String) -> Key? {
        switch Character(Unicode.Scalar(final)) {
        case "A": .up
        case "B": .down
        case "C": .right
        case "D": .left
        case "H": .home
        case "F": .end
        case "Z": .backTab
        case "~":
            switch parameter.split(separator: ";").first ?? "" {
            case "1", "7": .home
            case "4", "8": .end
            case "3": .delete
            case "5": .pageUp
            case "6": .pageDown
            default: nil
            }
        default: nil
        }
    }

    private func decodeUTF8(at index: Int) -> (Key?, Int)? {
        let lead = pending[index]
        let length =
            switch lead {
            case 0x00..<0x80: 1
            case 0xC2..<0xE0: 2
            case 0xE0..<0xF0: 3
            case 0xF0..<0xF5: 4
            default: 0
            }
        guard length > 0 else { return (nil, 1) }
        guard index + length <= pending.count else { return nil }
        let text = String(validating: pending[index..<(index + length)], as: UTF8.self)
        guard let character = text?.first else { return (nil, 1) }
        return (.character(character), length)
    }
}
