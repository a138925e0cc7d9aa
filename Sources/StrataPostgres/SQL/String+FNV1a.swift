extension String {
    /// The 64-bit FNV-1a hash of the text's UTF-8 bytes: the same in every process and on every run, unlike
    /// `hashValue`.
    var fnv1a: UInt64 {
        utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
