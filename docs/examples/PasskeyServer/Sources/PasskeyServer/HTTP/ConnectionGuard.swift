import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Bounds what one connection may hold, one handler per connection, after the HTTP decoder:
///
/// - **Total request time**: from the moment the connection is ready for a request (opened, or
///   its previous response sent) the whole request, head and body, must have arrived within
///   ``requestTimeout``; otherwise the connection is closed. A deadline for the whole rather
///   than a time-out between reads, so a client trickling a byte every few seconds is cut off
///   like a silent one; it also closes a connection left idle between requests.
/// - **Answered before read**: a response that ends before its request did (413 for a body
///   over the limit, or any refusal of a request still uploading) says `Connection: close`,
///   and once it is sent the server closes its side, reads and drops what the client still
///   sends for at most ``lingerTime`` (so that a client still uploading sees the answer, not a
///   reset), then closes the connection: the descriptor and the buffers go within a bounded
///   time, whatever the client does.
///
/// The wait for a response is not bounded here: the server itself computes it.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long a request may take to arrive, head and body.
    let requestTimeout: TimeAmount
    /// How long a connection answered before its request ended may linger, closed for writing.
    static let lingerTime = TimeAmount.seconds(1)

    /// Whether a request has begun and not ended (its head read, not yet its end).
    private var readingRequest = false
    /// Whether the request being answered was read to its end.
    private var requestEnded = false
    /// Whether the connection closes once the current response is sent.
    private var closeAfterResponse = false
    /// Whether the connection is closing: what it reads is dropped.
    private var lingering = false
    /// The deadline's task, while one is armed.
    private var deadline: Scheduled<Void>?

    init(requestTimeout: TimeAmount) {
        self.requestTimeout = requestTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !lingering else { return }
        switch unwrapInboundIn(data) {
        case .head:
            readingRequest = true
            requestEnded = false
        case .body:
            break
        case .end:
            readingRequest = false
            requestEnded = true
            // The server has the whole request: its answer is not the client's to delay.
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            if readingRequest || !requestEnded {
                closeAfterResponse = true
                head.headerFields[.connection] = "close"
                context.write(wrapOutboundOut(.head(head)), promise: promise)
                return
            }
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            if closeAfterResponse {
                let sent = context.eventLoop.makePromise(of: Void.self)
                context.writeAndFlush(data, promise: sent)
                sent.futureResult.assumeIsolated().whenComplete { _ in
                    self.linger(context)
                }
                sent.futureResult.cascade(to: promise)
                return
            }
            context.write(data, promise: promise)
            requestEnded = false
            arm(context)
        }
    }

    /// Starts the deadline for the next request, if none runs.
    private func arm(_ context: ChannelHandlerContext) {
        guard deadline == nil else { return }
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: requestTimeout) {
            self.deadline = nil
            context.close(promise: nil)
        }
    }

    /// Closes the connection for writing, drops what it reads, and closes it fully after
    /// ``lingerTime`` (or when the client closes first).
    private func linger(_ context: ChannelHandlerContext) {
        lingering = true
        disarm()
        context.close(mode: .output, promise: nil)
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: Self.lingerTime) {
            self.deadline = nil
            context.close(promise: nil)
        }
    }

    /// Cancels the deadline.
    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }
}
