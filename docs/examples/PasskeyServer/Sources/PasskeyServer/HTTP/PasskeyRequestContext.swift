import Hummingbird
import NIOCore

/// The request context: Hummingbird's basics and the client's address, which the rate limit
/// counts by.
struct PasskeyRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The address of the connection's peer (a proxy's, behind one).
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The client as the rate limit knows it: its IP address.
    var clientKey: String {
        remoteAddress?.ipAddress ?? "unknown"
    }
}
