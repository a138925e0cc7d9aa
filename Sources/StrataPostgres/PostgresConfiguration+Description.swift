extension PostgresConfiguration: CustomStringConvertible, CustomReflectable {
    /// The configuration as logs may show it: the URL without its password or parameters (``redactedURL``).
    public var description: String {
        "PostgresConfiguration(name: \(name), url: \(redactedURL), databaseSchema: \(databaseSchema), allowsSave: \(allowsSave), "
            + "maximumConnections: \(maximumConnections))"
    }

    /// What `dump` and debuggers show: the same fields, the URL redacted.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "name": name, "url": redactedURL, "databaseSchema": databaseSchema, "allowsSave": allowsSave,
                "maximumConnections": maximumConnections, "statementTimeout": statementTimeout as Any,
            ])
    }
}
