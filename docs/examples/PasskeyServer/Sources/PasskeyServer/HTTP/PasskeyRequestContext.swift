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

    /// The client as the rate limit knows it: its IPv4 address, or its IPv6 address's /64
    /// prefix (a host is usually given a whole /64 and may send from any address in it, so
    /// counting addresses one by one would let one host fill the limiter's table).
    var clientKey: String {
        guard case .v6(let address)? = remoteAddress else {
            return remoteAddress?.ipAddress ?? "unknown"
        }
        let bytes = withUnsafeBytes(of: address.address.sin6_addr) { Array($0) }
        // An IPv4 client of a dual-stack socket (::ffff:a.b.c.d) is its own IPv4 address.
        guard bytes.count == 16,
            !(bytes.prefix(10).allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF)
        else { return remoteAddress?.ipAddress ?? "unknown" }
        let hex = bytes.prefix(8).map { byte in
            String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16)
        }
        return hex.joined() + "::/64"
    }
}
