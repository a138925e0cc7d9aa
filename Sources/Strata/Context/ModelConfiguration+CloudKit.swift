import Foundation
import Synchronization

extension ModelConfiguration {
    /// Which CloudKit database a configuration syncs with, as SwiftData's `cloudKitDatabase:` argument says.
    ///
    /// Accepted so CloudKit-ready code compiles unchanged. Strata never syncs: `.none` and `.automatic` (which
    /// syncs only in an app set up for CloudKit, which a Linux process never is) store locally without a word;
    /// `.private(_:)` stores locally too, and says once per process on standard error that it doesn't sync.
    public struct CloudKitDatabase: Sendable, Hashable {
        package enum Choice: Sendable, Hashable {
            case automatic
            case none
            case privateDatabase(String)
        }

        package let choice: Choice

        /// Sync with the app's CloudKit container if it has one (SwiftData's default); on Linux, none.
        public static var automatic: CloudKitDatabase { CloudKitDatabase(choice: .automatic) }
        /// Don't sync.
        public static var none: CloudKitDatabase { CloudKitDatabase(choice: .none) }
        /// Sync with the private database of the named iCloud container (`"iCloud.com.example.app"`); Strata
        /// stores locally instead, and says so once.
        public static func `private`(_ privateDBName: String) -> CloudKitDatabase {
            CloudKitDatabase(choice: .privateDatabase(privateDBName))
        }
    }

    /// Which app group container holds the store, as SwiftData's `groupContainer:` argument says.
    ///
    /// Accepted so code written for Apple's platforms compiles unchanged; Linux has no app groups, so the store
    /// goes in the default directory whatever is chosen.
    public struct GroupContainer: Sendable, Hashable {
        package let identifier: String?
        private let isAutomatic: Bool

        /// Use the app's group container if it has exactly one (SwiftData's default); on Linux, none.
        public static var automatic: GroupContainer { GroupContainer(identifier: nil, isAutomatic: true) }
        /// Don't use a group container.
        public static var none: GroupContainer { GroupContainer(identifier: nil, isAutomatic: false) }
        /// Use the named app group container.
        public static func identifier(_ groupName: String) -> GroupContainer {
            GroupContainer(identifier: groupName, isAutomatic: false)
        }
    }

    /// The identifier of the configuration's CloudKit container (the name given to `.private(_:)`), or `nil`;
    /// Strata never syncs with it.
    public var cloudKitContainerIdentifier: String? {
        guard case .privateDatabase(let name) = cloudKitDatabase.choice else { return nil }
        return name
    }

    /// The identifier of the configuration's app group container (the name given to `.identifier(_:)`), or `nil`.
    public var groupAppContainerIdentifier: String? { groupContainer.identifier }

    /// Whether the process has been told that CloudKit sync doesn't run.
    private static let toldCloudKitUnavailable = Atomic<Bool>(false)

    /// Says through `StrataLog` (by default on standard error), the first time in the process, that a
    /// configuration asking for CloudKit sync stores locally only.
    /// - Returns: whether this call wrote the notice.
    @discardableResult
    package static func noteCloudKitUnavailable(_ database: CloudKitDatabase) -> Bool {
        guard case .privateDatabase(let name) = database.choice,
            !toldCloudKitUnavailable.exchange(true, ordering: .relaxed)
        else { return false }
        StrataLog.log(
            .warning,
            "cloudKitDatabase .private(\"\(name)\") is accepted but not synced; models are stored locally only "
                + "(Strata has no CloudKit sync)",
            metadata: ["container": name], category: "configuration")
        return true
    }
}
