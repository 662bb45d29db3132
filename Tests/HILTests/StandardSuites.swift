import HILTesting
import Testing

/// The standard transitions, run one at a time on the bench HIL_RIG names (the bench has one central).
@Suite(.bench, .serialized) enum StandardSuites {}
